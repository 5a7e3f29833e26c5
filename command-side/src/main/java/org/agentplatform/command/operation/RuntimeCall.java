package org.agentplatform.command.operation;

import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.RuntimeMethod;

/** One dispatch of an operation to its instance's runtime, fenced by the runtime epoch it was started at. */
public record RuntimeCall(
        InstanceId instanceId,
        OwnerId ownerId,
        long runtimeEpoch,
        OperationId operationId,
        RuntimeMethod method,
        Map<String, Object> params) {
}
