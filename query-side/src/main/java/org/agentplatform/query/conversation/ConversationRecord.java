package org.agentplatform.query.conversation;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/**
 * A conversation as of its latest event ({@code version} is the aggregate sequence): {@code status} {@code open}
 * or {@code closed}; {@code turn} its latest turn and {@code turnStatus} how that turn stands (null before the
 * first); {@code text} the agent's latest reply; {@code lastOffset} the true maximum offset of its log (chunks
 * included); {@code openedOffset} the offset it opened at (the list's cursor); chunks at or below
 * {@code prunedThrough} (null: none) are gone.
 */
public record ConversationRecord(
        ConversationId id,
        OwnerId ownerId,
        AgentId agentId,
        InstanceId instanceId,
        String contextId,
        String title,
        String status,
        int turn,
        String turnStatus,
        int messages,
        String text,
        String errorCode,
        String errorMessage,
        long lastOffset,
        long openedOffset,
        Long prunedThrough,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    public boolean isClosed() {
        return ConversationProjection.CLOSED.equals(status);
    }
}
