package org.agentplatform.query.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.GlobalIndex;
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
import org.agentplatform.kernel.task.TaskEvent.TaskTurnBegan;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.WriteBatching;
import org.agentplatform.query.channel.ChannelChunks;
import org.agentplatform.query.channel.ChannelLocks;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.channel.ChannelOffsets;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Task events into the snapshot ({@code task_view}) and the task's channel log ({@link ChannelLog}): an event's
 * message, if it carries one, then its {@code task_status} row. The statuses that end a turn from outside
 * (cancel, timeout, failure) are written under the task's lock, which the chunk writer takes too
 * ({@link ChannelChunks}).
 */
@ProcessingGroup(TaskProjection.GROUP)
public class TaskProjection {

    public static final String GROUP = "task-projection";
    public static final String TASK_STATUS = "task_status";

    private static final String VIEW = "task_view";

    private final JdbcTemplate jdbc;
    private final ChannelLog log;

    public TaskProjection(JdbcTemplate jdbc) {
        this(jdbc, WriteBatching.NONE);
    }

    /** {@code batching}: whether a batch's statements may wait for its commit, to be sent together. */
    public TaskProjection(JdbcTemplate jdbc, WriteBatching batching) {
        this.jdbc = jdbc;
        this.log = new ChannelLog(jdbc, VIEW, batching);
    }

    @EventHandler
    void on(TaskCreated event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        long last = ChannelLog.lastOffset(globalIndex, 2);
        // the first message is the input of turn 1; the queued status is turn 0
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put("owner_id", event.task().ownerId().value());
        columns.put("agent_id", event.task().agentId().value());
        columns.put("instance_id", event.task().instanceId().value());
        columns.put("context_id", event.task().contextId());
        columns.put("origin", event.origin().wireName());
        columns.put("status", event.status().wireName());
        columns.put("turn", 0);
        columns.put("deadline", SqlTime.of(event.deadline()));
        log.write(event.taskId().value(), globalIndex, at, ChannelLog.Change.insert(VIEW, event.taskId().value(), sequence, at, last, columns),
                rows(event));
    }

    /** The rows a creation writes: the first message (the input of turn 1), then the queued status (turn 0). */
    static List<ChannelLog.Row> rows(TaskCreated event) {
        return List.of(ChannelLog.message(event.message(), 1), status(event, 0, null));
    }

    @EventHandler
    void on(TaskStarted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        changeWith(event, sequence, at, ChannelLog.globalIndex(index, token), rows(event), "turn", event.turn());
    }

    /**
     * The row a start writes: its status, with the runtime's epoch; none for one that waits for a worker (the task is still
     * queued, only its turn moves on).
     */
    static List<ChannelLog.Row> rows(TaskStarted event) {
        return event.changesStatus() ? rows(event, event.turn(), null, Map.of("runtime_epoch", event.runtimeEpoch())) : List.of();
    }

    /**
     * A worker began the turn: the running status, in the window of the event that handed the turn over (after its rows,
     * before the turn's chunks, which a reader is shown once it is there), stamped with the instant the worker began.
     */
    @EventHandler
    void on(TaskTurnBegan event, @SequenceNumber long sequence, @Timestamp Instant at) {
        long offset = ChannelOffsets.ofTurnBegan(event.window());
        log.writeAt(event.taskId().value(), offset, event.began(), ChannelLog.Change.set(VIEW, event.taskId().value(), sequence, at,
                offset, Map.of("status", event.status().wireName())), List.of(status(event, event.turn(), Map.of())));
    }

    @EventHandler
    void on(TaskInputRequired event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, ChannelLog.globalIndex(index, token), event.turn(), event.prompt(), Map.of(), "text", event.prompt().text());
    }

    @EventHandler
    void on(TaskAuthRequired event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, ChannelLog.globalIndex(index, token), event.turn(), event.prompt(), Map.of(), "text", event.prompt().text());
    }

    @EventHandler
    void on(TaskContinued event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, ChannelLog.globalIndex(index, token), event.turn(), event.message(), Map.of(), "turn", event.turn());
    }

    @EventHandler
    void on(TaskCompleted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        change(event, sequence, at, ChannelLog.globalIndex(index, token), event.turn(), event.reply(), Map.of(), "text", event.reply().text());
    }

    @EventHandler
    void on(TaskFailed event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("code", event.failure().code());
        data.put("message", event.failure().message());
        ChannelLocks.lock(jdbc, event.taskId().value());
        // a failure without a reply keeps the text the task had: not a plain value, so this change does not fold
        List<ChannelLog.Row> rows = rows(event, event.turn(), event.reply(), data);
        long globalIndex = ChannelLog.globalIndex(index, token);
        log.write(event.taskId().value(), globalIndex, at, ChannelLog.Change.update(VIEW, event.taskId().value(), sequence, at,
                ChannelLog.lastOffset(globalIndex, rows.size()), "text = COALESCE(?, text), error_code = ?, error_message = ?, status = ?",
                event.reply() == null ? null : event.reply().text(), event.failure().code(), event.failure().message(),
                event.status().wireName()), rows);
    }

    @EventHandler
    void on(TaskRejected event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", event.reason());
        change(event, sequence, at, ChannelLog.globalIndex(index, token), event.turn(), null, data, "error_message", event.reason());
    }

    @EventHandler
    void on(TaskCanceled event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("previous", event.previous().wireName());
        data.put("reason", event.reason());
        ChannelLocks.lock(jdbc, event.taskId().value());
        change(event, sequence, at, ChannelLog.globalIndex(index, token), null, null, data, "error_message", event.reason());
    }

    @EventHandler
    void on(TaskTimedOut event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        ChannelLocks.lock(jdbc, event.taskId().value());
        change(event, sequence, at, ChannelLog.globalIndex(index, token), null, null, Map.of("previous", event.previous().wireName()),
                "error_message", "The task's deadline passed before it finished");
    }

    /**
     * Moves the snapshot to the event, {@code column} set to {@code value} and the status to the event's (unless it already saw
     * it: a replay), and logs the event (its message, then its status). A null turn keeps the task's turn.
     */
    private void change(TaskEvent event, long sequence, Instant at, long globalIndex, Integer turn, TaskMessage message,
            Map<String, Object> data, String column, Object value) {
        changeWith(event, sequence, at, globalIndex, rows(event, turn, message, data), column, value);
    }

    private void changeWith(TaskEvent event, long sequence, Instant at, long globalIndex, List<ChannelLog.Row> rows, String column,
            Object value) {
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put(column, value);
        columns.put("status", event.status().wireName());
        long last = rows.isEmpty() ? 0 : ChannelLog.lastOffset(globalIndex, rows.size());
        log.write(event.taskId().value(), globalIndex, at, ChannelLog.Change.set(VIEW, event.taskId().value(), sequence, at, last, columns),
                rows);
    }

    /** An event's rows: its message, if it carries one, then its status. */
    private static List<ChannelLog.Row> rows(TaskEvent event, Integer turn, TaskMessage message, Map<String, Object> data) {
        List<ChannelLog.Row> rows = new ArrayList<>(2);
        if (message != null) {
            rows.add(ChannelLog.message(message, turn));
        }
        rows.add(status(event, turn, data));
        return rows;
    }

    private static ChannelLog.Row status(TaskEvent event, Integer turn, Map<String, Object> data) {
        return ChannelLog.status(TASK_STATUS, turn, event.status().wireName(), data);
    }
}
