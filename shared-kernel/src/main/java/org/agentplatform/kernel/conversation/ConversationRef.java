package org.agentplatform.kernel.conversation;

import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/** Who and where a conversation is, carried by every conversation event so no reader has to load anything else. */
public record ConversationRef(ConversationId conversationId, OwnerId ownerId, AgentId agentId, InstanceId instanceId, String contextId) {
}
