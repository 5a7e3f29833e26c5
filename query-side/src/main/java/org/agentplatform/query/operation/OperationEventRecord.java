package org.agentplatform.query.operation;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationStatus;

/** One event of an operation's durable stream: its sequence, type, the status right after, and its details. */
public record OperationEventRecord(
        OperationId operationId,
        InstanceId instanceId,
        long sequence,
        String type,
        OperationStatus status,
        Map<String, Object> data,
        Instant occurredAt) {
}
