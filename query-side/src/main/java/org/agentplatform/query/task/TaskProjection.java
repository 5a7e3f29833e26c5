package org.agentplatform.query.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.GlobalIndex;
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
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Task events into the snapshot ({@code task_view}) and the log ({@code task_message}): an event's
 * message, if it carries one, then its {@code task_status} row, at offsets from {@link TaskOffsets} of the
 * event's own global index. Each event is one statement (snapshot, rows and one notification on
 * {@value #CHANNEL}); the rows stay the truth. The statuses that end a turn from outside (cancel, timeout,
 * failure) are written under the task's lock, which the chunk writer takes too ({@link TaskChunks}).
 */
@ProcessingGroup(TaskProjection.GROUP)
public class TaskProjection {

    public static final String GROUP = "task-projection";
    public static final String CHANNEL = "task_events";

    public static final String USER_MESSAGE = "user_message";
    public static final String AGENT_MESSAGE = "agent_message";
    public static final String TASK_STATUS = "task_status";

    private static final String LOG_COLUMNS = "(task_id, log_offset, kind, turn, role, status, text, attachments, data, occurred_at)";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)";
    /** A log row whose turn the statement decides (the task's current one). */
    private static final String ROW_OF_TURN = "?::uuid, ?::bigint, ?::text, ?::text, ?::text, ?::text, ?::jsonb, ?::jsonb, ?::timestamptz";
    private static final String CREATED = "WITH created AS (INSERT INTO task_view (id, owner_id, agent_id, instance_id, context_id,"
            + " origin, status, turn, deadline, last_offset, change_offset, version, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING),"
            + " logged AS (INSERT INTO task_message " + LOG_COLUMNS + " VALUES " + ROW + ", " + ROW + " ON CONFLICT DO NOTHING)"
            + " SELECT pg_notify(?, ?)";

    private final JdbcTemplate jdbc;

    public TaskProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(TaskCreated event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long offset = TaskOffsets.ofEvent(globalIndex(index, token));
        List<Object> arguments = new ArrayList<>(List.of(event.taskId().value(), event.task().ownerId().value(),
                event.task().agentId().value(), event.task().instanceId().value(), event.task().contextId(), event.origin().wireName(),
                event.status().wireName()));
        arguments.addAll(Arrays.asList(SqlTime.of(event.deadline()), offset + 1, offset + 1, sequence, SqlTime.of(at), SqlTime.of(at)));
        // the first message is the input of turn 1; the queued status is turn 0
        arguments.addAll(messageRow(event, offset, 1, at, event.message()));
        arguments.addAll(statusRow(event, offset + 1, 0, null, at));
        arguments.addAll(List.of(CHANNEL, event.taskId() + ":" + (offset + 1)));
        jdbc.query(CREATED, row -> null, arguments.toArray());
    }

    @EventHandler
    void on(TaskStarted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, globalIndex(index, token), event.turn(), null, Map.of("runtime_epoch", event.runtimeEpoch()),
                "turn = ?", event.turn());
    }

    @EventHandler
    void on(TaskInputRequired event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, globalIndex(index, token), event.turn(), event.prompt(), Map.of(), "text = ?", event.prompt().text());
    }

    @EventHandler
    void on(TaskAuthRequired event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, globalIndex(index, token), event.turn(), event.prompt(), Map.of(), "text = ?", event.prompt().text());
    }

    @EventHandler
    void on(TaskContinued event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, globalIndex(index, token), event.turn(), event.message(), Map.of(), "turn = ?", event.turn());
    }

    @EventHandler
    void on(TaskCompleted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, globalIndex(index, token), event.turn(), event.reply(), Map.of(), "text = ?", event.reply().text());
    }

    @EventHandler
    void on(TaskFailed event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("code", event.failure().code());
        data.put("message", event.failure().message());
        TaskLocks.lock(jdbc, event.taskId());
        change(event, sequence, at, globalIndex(index, token), event.turn(), event.reply(), data,
                "text = COALESCE(?, text), error_code = ?, error_message = ?",
                event.reply() == null ? null : event.reply().text(), event.failure().code(), event.failure().message());
    }

    @EventHandler
    void on(TaskRejected event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", event.reason());
        change(event, sequence, at, globalIndex(index, token), event.turn(), null, data, "error_message = ?", event.reason());
    }

    @EventHandler
    void on(TaskCanceled event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("previous", event.previous().wireName());
        data.put("reason", event.reason());
        TaskLocks.lock(jdbc, event.taskId());
        change(event, sequence, at, globalIndex(index, token), null, null, data, "error_message = ?", event.reason());
    }

    @EventHandler
    void on(TaskTimedOut event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        TaskLocks.lock(jdbc, event.taskId());
        change(event, sequence, at, globalIndex(index, token), null, null, Map.of("previous", event.previous().wireName()),
                "error_message = ?", "The task's deadline passed before it finished");
    }

    /**
     * Moves the snapshot to the event with {@code assignments} (unless it already saw it: a replay) and logs
     * the event (its message, then its status), in one statement. A null turn keeps the task's turn.
     */
    private void change(TaskEvent event, long sequence, Instant at, long globalIndex, Integer turn, TaskMessage message,
            Map<String, Object> data, String assignments, Object... values) {
        long offset = TaskOffsets.ofEvent(globalIndex);
        long last = message == null ? offset : offset + 1;
        List<Object> arguments = new ArrayList<>(Arrays.asList(values));
        arguments.addAll(List.of(event.status().wireName(), last, last, sequence, SqlTime.of(at), event.taskId().value(), sequence));
        arguments.add(turn);
        arguments.add(event.taskId().value());
        if (message != null) {
            arguments.addAll(messageRow(event, offset, null, at, message));
        }
        arguments.addAll(statusRow(event, last, null, data.isEmpty() ? null : data, at));
        arguments.addAll(List.of(CHANNEL, event.taskId() + ":" + last));
        String rows = message == null ? "(" + ROW_OF_TURN + ")" : "(" + ROW_OF_TURN + "), (" + ROW_OF_TURN + ")";
        jdbc.query("WITH moved AS (UPDATE task_view SET " + assignments + ", status = ?, last_offset = GREATEST(last_offset, ?),"
                        + " change_offset = ?, version = ?, updated_at = ? WHERE id = ? AND version < ? RETURNING turn),"
                        + " current AS (SELECT COALESCE(?::int, (SELECT turn FROM moved), (SELECT turn FROM task_view WHERE id = ?), 0)"
                        + " AS turn),"
                        + " logged AS (INSERT INTO task_message " + LOG_COLUMNS + " SELECT r.task_id, r.log_offset, r.kind, current.turn,"
                        + " r.role, r.status, r.text, r.attachments, r.data, r.occurred_at FROM current, (VALUES " + rows + ")"
                        + " AS r(task_id, log_offset, kind, role, status, text, attachments, data, occurred_at) ON CONFLICT DO NOTHING)"
                        + " SELECT pg_notify(?, ?)",
                row -> null, arguments.toArray());
    }

    /** The arguments of a message row: with a turn for {@link #ROW}, without one for {@link #ROW_OF_TURN}. */
    private static List<Object> messageRow(TaskEvent event, long offset, Integer turn, Instant at, TaskMessage message) {
        String kind = TaskMessage.USER.equals(message.role()) ? USER_MESSAGE : AGENT_MESSAGE;
        return row(event, offset, kind, turn, message.role(), null, message.text(), attachments(message), null, at);
    }

    private static List<Object> statusRow(TaskEvent event, long offset, Integer turn, Map<String, Object> data, Instant at) {
        return row(event, offset, TASK_STATUS, turn, null, event.status().wireName(), null, null, data, at);
    }

    private static List<Object> row(TaskEvent event, long offset, String kind, Integer turn, String role, String status, String text,
            List<Map<String, Object>> attachments, Map<String, Object> data, Instant at) {
        List<Object> row = new ArrayList<>(List.of(event.taskId().value(), offset, kind));
        if (turn != null) {
            row.add(turn);
        }
        row.addAll(Arrays.asList(role, status, text, JsonColumns.write(attachments), JsonColumns.write(data), SqlTime.of(at)));
        return row;
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

    /** The event's own global index; a reader that does not add it (none today) falls back to its token's position. */
    private static long globalIndex(Long index, TrackingToken token) {
        if (index != null) {
            return index;
        }
        return token.position().orElseThrow(() -> new IllegalStateException("The event's tracking token has no position: " + token));
    }
}
