package org.agentplatform.query.task;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One row of a task's log: a message ({@code user_message}, {@code agent_message}), a status transition
 * ({@code task_status}) or a streaming chunk ({@code agent_reply_delta}, {@code agent_thought_chunk},
 * {@code agent_message_chunk}).
 */
public record TaskLogEntry(
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
        return TaskChunks.KINDS.contains(kind);
    }
}
