package org.agentplatform.query.agent;

import org.agentplatform.kernel.instance.InstanceStatus;

/**
 * An agent (without its skills) and, in the same read, the status and runtime epoch of its instance: what
 * giving the agent work needs to know. {@code instanceStatus} is null when the instance is unknown.
 */
public record AgentOnInstance(AgentRecord agent, InstanceStatus instanceStatus, long runtimeEpoch) {
}
