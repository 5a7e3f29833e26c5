package org.agentplatform.query.terminal;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;

/**
 * A terminal as the read model knows it: {@code status} {@code open} or {@code ended}; {@code attached} whether a
 * connection is attached now; {@code attachments} how many connections redeemed a ticket so far; {@code endReason}
 * and {@code exitStatus} once ended; {@code version} the aggregate's sequence it reflects.
 */
public record TerminalRecord(
        TerminalId id,
        OwnerId ownerId,
        InstanceId instanceId,
        AgentId agentId,
        ConversationId conversationId,
        String status,
        boolean attached,
        int attachments,
        String endReason,
        Integer exitStatus,
        long version,
        Instant createdAt,
        Instant updatedAt,
        Instant endedAt) {
}
