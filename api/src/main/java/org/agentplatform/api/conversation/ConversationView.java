package org.agentplatform.api.conversation;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.api.channel.EntryView;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.conversation.ConversationProjection;
import org.agentplatform.query.conversation.ConversationRecord;
import org.jspecify.annotations.Nullable;

/**
 * The wire shape of a conversation: {@code status} {@code open} or {@code closed}; {@code turn} its latest turn
 * and {@code turn_status} how that turn stands (null before the first message); {@code text} the agent's latest
 * reply; {@code error} why the latest turn failed; {@code latest_offset} the true maximum offset of its log.
 */
record ConversationView(
        @JsonProperty("conversation_id") String conversationId,
        @JsonProperty("agent_id") String agentId,
        @JsonProperty("context_id") String contextId,
        String status,
        @Nullable String title,
        int turn,
        @JsonProperty("turn_status") @Nullable String turnStatus,
        int messages,
        @Nullable String text,
        @Nullable ErrorView error,
        @JsonProperty("latest_offset") long latestOffset,
        @JsonProperty("created_at") Instant createdAt,
        @JsonProperty("updated_at") Instant updatedAt) {

    record ErrorView(@Nullable String code, String message) {
    }

    /** The conversation for its owner: {@code open} opens the owner's sealed texts for the wire. */
    static ConversationView of(ConversationRecord conversation, UnaryOperator<String> open) {
        return new ConversationView(conversation.id().toString(), conversation.agentId().toString(), conversation.contextId(),
                conversation.status(), conversation.title(), conversation.turn(), conversation.turnStatus(), conversation.messages(),
                open.apply(conversation.text()), conversation.errorCode() == null ? null
                        : new ErrorView(wireCode(conversation.errorCode()), conversation.errorMessage()),
                conversation.lastOffset(), conversation.createdAt(), conversation.updatedAt());
    }

    /** A conversation just opened whose snapshot is not readable yet: what the open itself knows. */
    static ConversationView opened(ConversationId id, AgentId agent, String contextId, String title, Instant now) {
        return new ConversationView(id.toString(), agent.toString(), contextId, ConversationProjection.OPEN, title, 0, null, 0, null, null,
                0, now, now);
    }

    /**
     * A row of a conversation's log. A status row is final when it ends something: a {@code turn_status} other than
     * {@code running} ends its turn, {@code conversation_status} {@code closed} ends the conversation.
     */
    static EntryView entry(ChannelEntry entry, UnaryOperator<String> open) {
        EntryView view = EntryView.of(entry, entry.status() == null ? null : ends(entry), open);
        return view.data() == null || !view.data().containsKey("code") ? view : view.withData(wireData(view.data()));
    }

    /**
     * A failure's code on the wire: the agent's own report of a failed turn has none, as a task's has none
     * ({@code agent_reply_error} is only ever {@code done.code}, the contract says); its text is the message.
     */
    static String wireCode(String code) {
        return TaskFailure.AGENT_REPLY_ERROR.equals(code) ? null : code;
    }

    /** A turn status row's data with its failure code as {@link #wireCode} has it. */
    static Map<String, Object> wireData(Map<String, Object> data) {
        if (!TaskFailure.AGENT_REPLY_ERROR.equals(data.get("code"))) {
            return data;
        }
        Map<String, Object> wire = new LinkedHashMap<>(data);
        wire.put("code", null);
        return wire;
    }

    static boolean ends(ChannelEntry row) {
        return switch (row.kind()) {
            case ConversationProjection.TURN_STATUS -> !"running".equals(row.status());
            case ConversationProjection.CONVERSATION_STATUS -> ConversationProjection.CLOSED.equals(row.status());
            default -> false;
        };
    }
}
