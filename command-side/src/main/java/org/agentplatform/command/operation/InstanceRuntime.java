package org.agentplatform.command.operation;

import java.util.concurrent.CompletionStage;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;

/**
 * Port: the runtime (harness) of an instance. A runtime applies each operation at most once: a call
 * repeated with the same operation id answers the first outcome. A stage that never completes is a
 * silent runtime; the operation's answer deadline turns it into {@code outcome_unknown}.
 */
public interface InstanceRuntime {

    CompletionStage<RuntimeOutcome> invoke(RuntimeCall call);

    /** Asks the runtime to drop the call; true when it will answer {@link RuntimeOutcome.Aborted}. */
    boolean cancel(InstanceId instanceId, OperationId operationId);
}
