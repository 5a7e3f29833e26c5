package org.agentplatform.kernel.operation;

import org.agentplatform.kernel.agent.AgentId;

/** What the platform made of a committed operation: the snapshot's {@code projection}. */
public record OperationProjection(String revision, ProjectionState state, AgentId platformAgentId) {

    public static final OperationProjection NOT_APPLICABLE = new OperationProjection(null, ProjectionState.NOT_APPLICABLE, null);
    public static final OperationProjection PENDING = new OperationProjection(null, ProjectionState.PENDING, null);
}
