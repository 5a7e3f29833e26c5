package org.agentplatform.kernel.task;

import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/** Who and where a task is, carried by every task event so no reader has to load anything else. */
public record TaskRef(TaskId taskId, OwnerId ownerId, AgentId agentId, InstanceId instanceId, String contextId) {
}
