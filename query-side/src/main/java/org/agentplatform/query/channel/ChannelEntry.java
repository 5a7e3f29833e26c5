package org.agentplatform.query.channel;

import java.time.Instant;
import java.util.List;
import java.util.Map;

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

    public boolean isChunk() {
        return ChannelChunks.KINDS.contains(kind);
    }
}
