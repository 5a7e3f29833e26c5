package org.agentplatform.api.conversation;

import java.time.Duration;
import java.util.UUID;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.query.conversation.ConversationReads;
import org.agentplatform.query.conversation.ConversationRecord;
import reactor.core.publisher.Mono;

/**
 * A conversation is the caller's who opened it, with the agent it was opened with; anything else is 404
 * {@code agent_not_found}, as for tasks. One opened a moment ago is found too (the read waits for its projection,
 * woken by its commit).
 */
final class ConversationAccess {

    private static final Duration JUST_OPENED = Duration.ofSeconds(5);

    private ConversationAccess() {
    }

    static Mono<ConversationRecord> owned(ConversationReads conversations, AgentId agent, String convId, OwnerId caller) {
        ConversationId id = parse(convId);
        return conversations.findOpened(id, JUST_OPENED)
                .filter(conversation -> conversation.ownerId().equals(caller) && conversation.agentId().equals(agent))
                .switchIfEmpty(Mono.error(() -> notFound(convId, agent)));
    }

    private static ConversationId parse(String convId) {
        if (convId.isBlank() || convId.length() > PathIds.MAX_LENGTH) {
            throw ApiException.invalidParam("convId", "'convId' must be 1 to " + PathIds.MAX_LENGTH + " characters");
        }
        try {
            return new ConversationId(UUID.fromString(convId));
        } catch (IllegalArgumentException notAConversationId) {
            throw new ApiException(ErrorCode.AGENT_NOT_FOUND, "No conversation " + convId);
        }
    }

    private static ApiException notFound(String convId, AgentId agent) {
        return new ApiException(ErrorCode.AGENT_NOT_FOUND, "No conversation " + convId + " with agent " + agent);
    }
}
