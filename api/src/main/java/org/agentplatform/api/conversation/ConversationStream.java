package org.agentplatform.api.conversation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.channel.ChannelStream.Frame;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.conversation.ConversationProjection;
import org.agentplatform.query.conversation.ConversationReads;
import org.agentplatform.query.conversation.ConversationRecord;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A conversation's log as server-sent events ({@link ChannelStream}): it stays open across turns. A turn ends
 * with its {@code turn_status} frame whose {@code final} is true (after the agent's {@code agent_message}); the
 * stream ends only when the conversation is closed, with {@code conversation_status} {@code closed}, then
 * {@code done}.
 */
@Component
final class ConversationStream {

    private final ConversationReads conversations;
    private final ChannelStream stream;
    private final PersonalContent content;

    ConversationStream(ConversationReads conversations, ChannelStream stream, PersonalContent content) {
        this.conversations = conversations;
        this.content = content;
        this.stream = stream;
    }

    Flux<ServerSentEvent<String>> after(ConversationRecord conversation, long cursor) {
        return stream.after(OpenStreams.CONVERSATION, new Source(conversation), conversation, conversation.prunedThrough(), cursor);
    }

    private final class Source implements ChannelStream.Source<ConversationRecord> {

        private final ConversationRecord conversation;

        Source(ConversationRecord conversation) {
            this.conversation = conversation;
        }

        @Override
        public UUID channel() {
            return conversation.id().value();
        }

        @Override
        public Mono<ConversationRecord> snapshot() {
            return conversations.find(conversation.id());
        }

        @Override
        public Flux<ChannelEntry> rows(long since, int limit) {
            return conversations.log(conversation.id(), since, true, limit);
        }

        @Override
        public boolean isOver(ConversationRecord snapshot) {
            return snapshot.isClosed();
        }

        @Override
        public boolean ends(ChannelEntry row) {
            return ConversationProjection.CONVERSATION_STATUS.equals(row.kind()) && ConversationProjection.CLOSED.equals(row.status());
        }

        @Override
        public Map<String, Object> data(ChannelEntry stored) {
            ChannelEntry row = stored.personal(content.opener(conversation.ownerId()));
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("type", row.kind());
            data.put("conversation_id", conversation.id().toString());
            data.put("context_id", conversation.contextId());
            data.put("turn", row.turn());
            if (row.status() != null) {
                data.put("status", row.status());
                data.put("final", ConversationView.ends(row));
                if (row.data() != null) {
                    data.putAll(ConversationView.wireData(row.data()));
                }
            } else {
                data.put("role", row.role());
                data.put("text", row.text());
                if (!row.attachments().isEmpty()) {
                    data.put("attachments", row.attachments());
                }
                if (row.data() != null && row.data().get("message_id") != null) {
                    data.put("message_id", row.data().get("message_id"));
                }
            }
            data.put("timestamp", row.occurredAt().toString());
            return data;
        }

        /** A closed conversation ended as its caller asked: {@code done} with the agent's latest reply, not an error. */
        @Override
        public List<Frame> closing(ConversationRecord closed) {
            String reply = content.open(conversation.ownerId(), closed.text());
            return List.of(Frame.at(ChannelStream.doneOffset(closed.lastOffset()), "done",
                    ChannelStream.doneFrame(reply, closed.contextId(), null, null)));
        }
    }
}
