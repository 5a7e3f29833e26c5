package org.agentplatform.command.operation;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;

/** Port: the operations still queued on an instance, oldest first (read from the operation read model). */
public interface QueuedOperations {

    List<OperationId> queuedOn(InstanceId instanceId);
}
