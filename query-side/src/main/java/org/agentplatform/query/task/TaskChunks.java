package org.agentplatform.query.task;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.SqlTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the streaming chunks of a running turn into the task's log. Under the task's snapshot row lock
 * (which the projection also takes), a chunk takes the offset after the task's last one, in the window of
 * the task's latest event: so rows commit in offset order, and no chunk lands after a later status.
 * A chunk of a turn that is over (canceled, timed out, continued) is not written: the runtime stops.
 */
public final class TaskChunks {

    public static final String AGENT_REPLY_DELTA = "agent_reply_delta";
    public static final String AGENT_THOUGHT_CHUNK = "agent_thought_chunk";
    public static final String AGENT_MESSAGE_CHUNK = "agent_message_chunk";
    public static final List<String> KINDS = List.of(AGENT_REPLY_DELTA, AGENT_THOUGHT_CHUNK, AGENT_MESSAGE_CHUNK);

    private static final Logger log = LoggerFactory.getLogger(TaskChunks.class);
    private static final Duration PROJECTION_PATIENCE = Duration.ofSeconds(10);
    private static final Duration PROJECTION_POLL = Duration.ofMillis(10);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final Clock clock;

    /** What became of a chunk. */
    public enum Written {
        /** In the log (or already there: the turn ran again). */
        WRITTEN,
        /** Left out: the turn's window is full; the final message still carries the whole reply. */
        DROPPED,
        /** The turn is over; stop streaming. */
        TURN_OVER
    }

    public TaskChunks(JdbcTemplate jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Appends chunk {@code seq} of {@code turn}; waits (briefly) for the projection to show the turn running. */
    public Written append(TaskId task, int turn, int seq, String kind, String text) {
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("Not a chunk kind: " + kind);
        }
        long giveUp = System.nanoTime() + PROJECTION_PATIENCE.toNanos();
        while (true) {
            Written written = transactions.execute(status -> tryAppend(task, turn, seq, kind, text));
            if (written != null) {
                return written;
            }
            if (System.nanoTime() - giveUp > 0) {
                log.atWarn().addKeyValue("task_id", task.toString()).addKeyValue("turn", turn)
                        .log("the task projection did not show the turn running; chunk left out");
                return Written.DROPPED;
            }
            pause();
        }
    }

    /** Null when the projection has not caught up with the turn yet. */
    private Written tryAppend(TaskId task, int turn, int seq, String kind, String text) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT status, turn, last_offset, change_offset FROM task_view"
                + " WHERE id = ? FOR UPDATE", task.value());
        if (rows.isEmpty()) {
            return null;
        }
        Map<String, Object> view = rows.getFirst();
        int viewTurn = ((Number) view.get("turn")).intValue();
        if (viewTurn < turn) {
            return null;
        }
        if (viewTurn > turn || !"running".equals(view.get("status"))) {
            return Written.TURN_OVER;
        }
        long offset = ((Number) view.get("last_offset")).longValue() + 1;
        if (!TaskOffsets.sameWindow(offset, ((Number) view.get("change_offset")).longValue())) {
            return Written.DROPPED;
        }
        // a turn that runs again writes each chunk once: (task, turn, seq) is unique
        int inserted = jdbc.update("INSERT INTO task_chunk (task_id, log_offset, turn, seq, kind, text, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, turn, seq) DO NOTHING",
                task.value(), offset, turn, seq, kind, text, SqlTime.of(clock.instant()));
        if (inserted == 0) {
            return Written.WRITTEN;
        }
        jdbc.update("UPDATE task_view SET last_offset = ? WHERE id = ?", offset, task.value());
        jdbc.query("SELECT pg_notify(?, ?)", row -> null, TaskProjection.CHANNEL, task + ":" + offset);
        return Written.WRITTEN;
    }

    /** Deletes chunks older than {@code retention}; a stream resumed before them says {@code backfill_truncated}. */
    public int prune(Duration retention, int batch) {
        Integer pruned = transactions.execute(status -> jdbc.queryForObject("WITH pruned AS ("
                        + " DELETE FROM task_chunk WHERE (task_id, log_offset) IN (SELECT task_id, log_offset FROM task_chunk"
                        + " WHERE created_at < ? ORDER BY created_at LIMIT ?) RETURNING task_id, log_offset),"
                        + " marked AS (UPDATE task_view v SET pruned_through = GREATEST(COALESCE(v.pruned_through, 0), p.through)"
                        + " FROM (SELECT task_id, max(log_offset) AS through FROM pruned GROUP BY task_id) p WHERE v.id = p.task_id)"
                        + " SELECT count(*) FROM pruned",
                Integer.class, SqlTime.of(clock.instant().minus(retention)), batch));
        return pruned == null ? 0 : pruned;
    }

    private static void pause() {
        try {
            Thread.sleep(PROJECTION_POLL.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the task projection", interrupted);
        }
    }
}
