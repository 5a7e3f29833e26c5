package org.agentplatform.query.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskEvent.TaskAuthRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskCanceled;
import org.agentplatform.kernel.task.TaskEvent.TaskCompleted;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskFailed;
import org.agentplatform.kernel.task.TaskEvent.TaskInputRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskRejected;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTimedOut;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.SqlTime;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Task events into the snapshot ({@code task_view}) and the log ({@code task_message}): an event's
 * message, if it carries one, then its {@code task_status} row, at offsets from {@link TaskOffsets}.
 * Each row notifies {@value #CHANNEL}; the rows stay the truth.
 */
@ProcessingGroup(TaskProjection.GROUP)
public class TaskProjection {

    public static final String GROUP = "task-projection";
    public static final String CHANNEL = "task_events";

    public static final String USER_MESSAGE = "user_message";
    public static final String AGENT_MESSAGE = "agent_message";
    public static final String TASK_STATUS = "task_status";

    private final JdbcTemplate jdbc;

    public TaskProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(TaskCreated event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        long offset = TaskOffsets.ofEvent(globalIndex(token));
        jdbc.update("INSERT INTO task_view (id, owner_id, agent_id, instance_id, context_id, origin, status, turn, deadline,"
                        + " last_offset, change_offset, version, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.taskId().value(), event.task().ownerId().value(), event.task().agentId().value(),
                event.task().instanceId().value(), event.task().contextId(), event.origin().wireName(), event.status().wireName(),
                SqlTime.of(event.deadline()), offset + 1, offset + 1, sequence, SqlTime.of(at), SqlTime.of(at));
        // the first message is the input of turn 1; the queued status is turn 0
        insertMessage(event, offset, 1, at, event.message());
        insert(event, offset + 1, TASK_STATUS, 0, null, event.status().wireName(), null, null, null, at);
    }

    @EventHandler
    void on(TaskStarted event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, event.turn(), null, Map.of("runtime_epoch", event.runtimeEpoch()), "turn = ?",
                event.turn());
    }

    @EventHandler
    void on(TaskInputRequired event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, event.turn(), event.prompt(), Map.of(), "text = ?", event.prompt().text());
    }

    @EventHandler
    void on(TaskAuthRequired event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, event.turn(), event.prompt(), Map.of(), "text = ?", event.prompt().text());
    }

    @EventHandler
    void on(TaskContinued event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, event.turn(), event.message(), Map.of(), "turn = ?", event.turn());
    }

    @EventHandler
    void on(TaskCompleted event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, event.turn(), event.reply(), Map.of(), "text = ?", event.reply().text());
    }

    @EventHandler
    void on(TaskFailed event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("code", event.failure().code());
        data.put("message", event.failure().message());
        change(event, sequence, at, token, event.turn(), event.reply(), data,
                "text = COALESCE(?, text), error_code = ?, error_message = ?",
                event.reply() == null ? null : event.reply().text(), event.failure().code(), event.failure().message());
    }

    @EventHandler
    void on(TaskRejected event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", event.reason());
        change(event, sequence, at, token, event.turn(), null, data, "error_message = ?", event.reason());
    }

    @EventHandler
    void on(TaskCanceled event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("previous", event.previous().wireName());
        data.put("reason", event.reason());
        change(event, sequence, at, token, null, null, data, "error_message = ?", event.reason());
    }

    @EventHandler
    void on(TaskTimedOut event, @SequenceNumber long sequence, @Timestamp Instant at, TrackingToken token) {
        change(event, sequence, at, token, null, null, Map.of("previous", event.previous().wireName()), "error_message = ?",
                "The task's deadline passed before it finished");
    }

    /**
     * Logs the event (its message, then its status) and moves the snapshot to it with {@code assignments},
     * unless the snapshot already saw this event (a replay). A null turn keeps the task's turn.
     */
    private void change(TaskEvent event, long sequence, Instant at, TrackingToken token, Integer turn, TaskMessage message,
            Map<String, Object> data, String assignments, Object... values) {
        long offset = TaskOffsets.ofEvent(globalIndex(token));
        int rows = message == null ? 1 : 2;
        long last = offset + rows - 1;
        List<Object> arguments = new ArrayList<>(Arrays.asList(values));
        arguments.addAll(List.of(event.status().wireName(), last, last, sequence, SqlTime.of(at), event.taskId().value(), sequence));
        jdbc.update("UPDATE task_view SET " + assignments + ", status = ?, last_offset = GREATEST(last_offset, ?), change_offset = ?,"
                + " version = ?, updated_at = ? WHERE id = ? AND version < ?", arguments.toArray());
        Integer logTurn = turn != null ? turn : jdbc.queryForObject("SELECT turn FROM task_view WHERE id = ?", Integer.class,
                event.taskId().value());
        log(event, offset, logTurn == null ? 0 : logTurn, at, message, data);
    }

    private void log(TaskEvent event, long offset, int turn, Instant at, TaskMessage message, Map<String, Object> data) {
        long statusOffset = offset;
        if (message != null) {
            insertMessage(event, offset, turn, at, message);
            statusOffset = offset + 1;
        }
        insert(event, statusOffset, TASK_STATUS, turn, null, event.status().wireName(), null, null, data.isEmpty() ? null : data, at);
    }

    private void insertMessage(TaskEvent event, long offset, int turn, Instant at, TaskMessage message) {
        String kind = TaskMessage.USER.equals(message.role()) ? USER_MESSAGE : AGENT_MESSAGE;
        insert(event, offset, kind, turn, message.role(), null, message.text(), attachments(message), null, at);
    }

    private void insert(TaskEvent event, long offset, String kind, int turn, String role, String status, String text,
            List<Map<String, Object>> attachments, Map<String, Object> data, Instant at) {
        jdbc.update("INSERT INTO task_message (task_id, log_offset, kind, turn, role, status, text, attachments, data, occurred_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?) ON CONFLICT DO NOTHING",
                event.taskId().value(), offset, kind, turn, role, status, text, JsonColumns.write(attachments),
                JsonColumns.write(data), SqlTime.of(at));
        jdbc.query("SELECT pg_notify(?, ?)", row -> null, CHANNEL, event.taskId() + ":" + offset);
    }

    private static List<Map<String, Object>> attachments(TaskMessage message) {
        if (message.attachments().isEmpty()) {
            return null;
        }
        List<Map<String, Object>> json = new ArrayList<>();
        for (Attachment attachment : message.attachments()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("file_id", attachment.fileId());
            item.put("name", attachment.name());
            item.put("content_type", attachment.contentType());
            item.put("size_bytes", attachment.sizeBytes());
            item.put("sha256", attachment.sha256());
            json.add(item);
        }
        return json;
    }

    private static long globalIndex(TrackingToken token) {
        return token.position().orElseThrow(() -> new IllegalStateException("The event's tracking token has no position: " + token));
    }
}
