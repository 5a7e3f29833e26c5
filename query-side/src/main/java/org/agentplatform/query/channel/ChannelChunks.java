package org.agentplatform.query.task;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.SqlTime;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the streaming chunks of a running turn into the task's log. A turn's chunks take the offsets
 * after the rows of the event that started it ({@link TaskOffsets#ofChunk}), so the runtime needs nothing
 * from the read model to place them. What must not happen is a chunk committed after a status that ends
 * its turn from outside (cancel, timeout, failure): a live stream would already be past its offset. So a
 * chunk is written under the task's lock ({@link TaskLocks}), which the projection also takes for those
 * statuses, and only while no later status is in the log; once one is, the turn is over.
 */
public final class TaskChunks {

    public static final String AGENT_REPLY_DELTA = "agent_reply_delta";
    public static final String AGENT_THOUGHT_CHUNK = "agent_thought_chunk";
    public static final String AGENT_MESSAGE_CHUNK = "agent_message_chunk";
    public static final List<String> KINDS = List.of(AGENT_REPLY_DELTA, AGENT_THOUGHT_CHUNK, AGENT_MESSAGE_CHUNK);

    /**
     * One statement: whether a later status ended the turn, else the chunks (a turn that runs again writes
     * each once: (task, turn, seq) is unique) and one notification.
     */
    private static final String APPEND = "WITH ended AS (SELECT EXISTS (SELECT 1 FROM task_message WHERE task_id = ?"
            + " AND log_offset >= ? AND kind = 'task_status') AS over),"
            + " written AS (INSERT INTO task_chunk (task_id, log_offset, turn, seq, kind, text, created_at)"
            + " SELECT ?, c.log_offset, ?, c.seq, c.kind, c.text, ? FROM unnest(?::bigint[], ?::int[], ?::text[], ?::text[])"
            + " AS c(log_offset, seq, kind, text) WHERE NOT (SELECT over FROM ended) ON CONFLICT DO NOTHING)"
            + " SELECT CASE WHEN over THEN TRUE ELSE (SELECT FALSE FROM pg_notify(?, ?)) END FROM ended";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final Clock clock;

    /** What became of chunks. */
    public enum Written {
        /** In the log (or already there: the turn ran again). */
        WRITTEN,
        /** Left out: the turn's window is full; the final message still carries the whole reply. */
        DROPPED,
        /** The turn is over; stop streaming. */
        TURN_OVER
    }

    /** One streamed piece of a turn: its number in the turn, its kind and text. */
    public record Chunk(int seq, String kind, String text) {

        public Chunk {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("Not a chunk kind: " + kind);
            }
        }
    }

    public TaskChunks(JdbcTemplate jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Appends chunks of {@code turn}, which started with the event at {@code window}, in one transaction. */
    public Written append(TaskId task, int turn, long window, List<Chunk> chunks) {
        if (chunks.isEmpty()) {
            return Written.WRITTEN;
        }
        if (chunks.getLast().seq() >= TaskOffsets.CHUNKS_PER_WINDOW) {
            return Written.DROPPED;
        }
        int size = chunks.size();
        long[] offsets = new long[size];
        int[] seqs = new int[size];
        String[] kinds = new String[size];
        String[] texts = new String[size];
        for (int index = 0; index < size; index++) {
            Chunk chunk = chunks.get(index);
            offsets[index] = TaskOffsets.ofChunk(window, chunk.seq());
            seqs[index] = chunk.seq();
            kinds[index] = chunk.kind();
            texts[index] = chunk.text();
        }
        Boolean over = transactions.execute(status -> {
            TaskLocks.lock(jdbc, task);
            // a statement after the lock: it sees every status committed before the lock was ours
            return jdbc.queryForObject(APPEND, Boolean.class, task.value(), TaskOffsets.ofEvent(window + 1), task.value(), turn,
                    SqlTime.of(clock.instant()), offsets, seqs, kinds, texts, TaskProjection.CHANNEL, task + ":" + offsets[size - 1]);
        });
        return Boolean.TRUE.equals(over) ? Written.TURN_OVER : Written.WRITTEN;
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
}
