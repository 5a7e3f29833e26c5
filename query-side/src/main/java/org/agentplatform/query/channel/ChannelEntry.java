package org.agentplatform.query.channel;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One row of a channel's log: a message ({@code user_message}, {@code agent_message}), a status ({@code
 * task_status}; {@code turn_status} and {@code conversation_status} in a conversation) or a streaming chunk
 * ({@code agent_reply_delta}, {@code agent_thought_chunk}, {@code agent_message_chunk}).
 */
public record ChannelEntry(
        long offset,
        String kind,
        int turn,
        String role,
        String status,
        String text,
        List<Object> attachments,
        Map<String, Object> data,
        Instant occurredAt) {

    /**
     * The row with {@code change} applied to its personal parts (its text, its attachments' names): how an owner's
     * sealed texts are opened for the wire ({@link org.agentplatform.kernel.privacy.PersonalContent}).
     */
    public ChannelEntry personal(UnaryOperator<String> change) {
        List<Object> changed = attachments.isEmpty() ? attachments : attachments.stream().map(attachment -> {
            if (attachment instanceof Map<?, ?> fields && fields.get("name") instanceof String name) {
                Map<Object, Object> copy = new LinkedHashMap<>(fields);
                copy.put("name", change.apply(name));
                return (Object) copy;
            }
            return attachment;
        }).toList();
        return new ChannelEntry(offset, kind, turn, role, status, change.apply(text), changed, data, occurredAt);
    }

    public boolean isChunk() {
        return ChannelChunks.KINDS.contains(kind);
    }
}
