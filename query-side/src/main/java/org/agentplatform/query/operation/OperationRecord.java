package org.agentplatform.query.operation;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.operation.RuntimeMethod;

/**
 * The operation snapshot as of its last event ({@code sequence}). The JSON parts (cancel request,
 * projection, result, error) are stored in their wire shape.
 */
public record OperationRecord(
        OperationId id,
        InstanceId instanceId,
        OwnerId ownerId,
        RuntimeMethod method,
        OperationStatus status,
        long sequence,
        Map<String, Object> params,
        String resourceKey,
        String requestDigest,
        String requestId,
        Instant deadline,
        Long runtimeEpoch,
        Map<String, Object> cancelRequest,
        Map<String, Object> projection,
        Object result,
        Map<String, Object> error,
        Instant createdAt,
        Instant updatedAt) {
}
