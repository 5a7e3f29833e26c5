package org.agentplatform.query.channel;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.agentplatform.query.AfterLock;
import org.agentplatform.query.SqlTime;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the streaming chunks of a running turn into its channel's log. A turn's chunks take the offsets after
 * the rows of the event that started it ({@link ChannelOffsets#ofChunk}), so the runtime needs nothing from the
 * read model to place them. What must not happen is a chunk committed after a status that ends its turn from
 * outside (cancel, timeout, failure, close): a live stream would already be past its offset. So a chunk is written
 * under the channel's lock ({@link ChannelLocks}), which the projections also take for those statuses, and only
 * while no later status is in the log; once one is, the turn is over. (A conversation's later messages are not
 * statuses: the turn goes on while the caller writes.)
 */
public final class ChannelChunks {

    public static final String AGENT_REPLY_DELTA = "agent_reply_delta";
    public static final String AGENT_THOUGHT_CHUNK = "agent_thought_chunk";
    public static final String AGENT_MESSAGE_CHUNK = "agent_message_chunk";
    public static final List<String> KINDS = List.of(AGENT_REPLY_DELTA, AGENT_THOUGHT_CHUNK, AGENT_MESSAGE_CHUNK);

    /**
     * One statement: whether a later status ended the turn, else the chunks (a turn that runs again writes
     * each once: (channel, turn, seq) is unique), what else goes with them, and one notification.
     */
    private static final String ENDED = "WITH ended AS (SELECT EXISTS (SELECT 1 FROM channel_message WHERE channel_id = ?"
            + " AND log_offset >= ? AND status IS NOT NULL) AS over),"
            + " written AS (INSERT INTO channel_chunk (channel_id, log_offset, turn, seq, kind, text, created_at)"
            + " SELECT ?, c.log_offset, ?, c.seq, c.kind, c.text, ? FROM unnest(?::bigint[], ?::int[], ?::text[], ?::text[])"
            + " AS c(log_offset, seq, kind, text) WHERE NOT (SELECT over FROM ended) ON CONFLICT DO NOTHING)";
    private static final String NOTIFIED = " SELECT CASE WHEN over THEN TRUE ELSE (SELECT FALSE FROM pg_notify(?, ?)) END AS over";
    private static final String APPEND = ENDED + NOTIFIED + " FROM ended";

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

    /**
     * A change elsewhere that goes with the chunks (a turn's outcome with its last chunks): an {@code UPDATE} ending with
     * its {@code WHERE} clause, applied in the chunks' statement only when they are written.
     */
    public record Along(String statement, List<Object> arguments) {

        public static Along of(String statement, Object... arguments) {
            return new Along(statement, Arrays.asList(arguments));
        }
    }

    /** What became of chunks written {@link Along} another change, and whether that change applied. */
    public record WrittenAlong(Written written, boolean applied) {
    }

    /** One streamed piece of a turn: its number in the turn, its kind and text. */
    public record Chunk(int seq, String kind, String text) {

        public Chunk {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("Not a chunk kind: " + kind);
            }
        }
    }

    public ChannelChunks(JdbcTemplate jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Appends chunks of {@code turn} of {@code channel}, which started with the event at {@code window}, in one transaction. */
    public Written append(UUID channel, int turn, long window, List<Chunk> chunks) {
        if (chunks.isEmpty()) {
            return Written.WRITTEN;
        }
        if (chunks.getLast().seq() >= ChannelOffsets.CHUNKS_PER_WINDOW) {
            return Written.DROPPED;
        }
        List<Object> arguments = arguments(channel, turn, window, chunks);
        arguments.addAll(notification(channel, window, chunks));
        return underLock(channel, APPEND, arguments, (row, index) -> row.getBoolean("over") ? Written.TURN_OVER : Written.WRITTEN);
    }

    /**
     * Appends chunks as {@link #append} does, and applies {@code along} in the same statement when they are written (not
     * when they are {@link Written#DROPPED dropped} or the turn is over); {@code chunks} is not empty.
     */
    public WrittenAlong append(UUID channel, int turn, long window, List<Chunk> chunks, Along along) {
        if (chunks.getLast().seq() >= ChannelOffsets.CHUNKS_PER_WINDOW) {
            return new WrittenAlong(Written.DROPPED, false);
        }
        List<Object> arguments = arguments(channel, turn, window, chunks);
        arguments.addAll(along.arguments());
        arguments.addAll(notification(channel, window, chunks));
        return underLock(channel, ENDED + ", along AS (" + along.statement() + " AND NOT (SELECT over FROM ended) RETURNING 1)"
                        + NOTIFIED + ", EXISTS (SELECT 1 FROM along) AS applied FROM ended",
                arguments,
                (row, index) -> new WrittenAlong(row.getBoolean("over") ? Written.TURN_OVER : Written.WRITTEN, row.getBoolean("applied")));
    }

    /** The one row of {@code statement}, run under the channel's lock, in one round trip with it ({@link AfterLock}). */
    private <T> T underLock(UUID channel, String statement, List<Object> arguments, RowMapper<T> mapper) {
        return AfterLock.oneRow(jdbc, ChannelLocks.LOCK, statement, AfterLock.arguments(List.of(ChannelLocks.key(channel)), arguments), mapper);
    }

    /** The arguments of {@link #ENDED}. */
    private List<Object> arguments(UUID channel, int turn, long window, List<Chunk> chunks) {
        int size = chunks.size();
        long[] offsets = new long[size];
        int[] seqs = new int[size];
        String[] kinds = new String[size];
        String[] texts = new String[size];
        for (int index = 0; index < size; index++) {
            Chunk chunk = chunks.get(index);
            offsets[index] = ChannelOffsets.ofChunk(window, chunk.seq());
            seqs[index] = chunk.seq();
            kinds[index] = chunk.kind();
            texts[index] = chunk.text();
        }
        return new ArrayList<>(List.of(channel, ChannelOffsets.ofEvent(window + 1), channel, turn, SqlTime.of(clock.instant()), offsets,
                seqs, kinds, texts));
    }

    /** The arguments of {@link #NOTIFIED}: the channel, at its last chunk's offset. */
    private static List<Object> notification(UUID channel, long window, List<Chunk> chunks) {
        return List.of(ChannelLog.NOTIFICATIONS, channel + ":" + ChannelOffsets.ofChunk(window, chunks.getLast().seq()));
    }

    /** Deletes chunks older than {@code retention}; a stream resumed before them says {@code backfill_truncated}. */
    public int prune(Duration retention, int batch) {
        Integer pruned = transactions.execute(status -> jdbc.queryForObject("WITH pruned AS ("
                        + " DELETE FROM channel_chunk WHERE (channel_id, log_offset) IN (SELECT channel_id, log_offset FROM channel_chunk"
                        + " WHERE created_at < ? ORDER BY created_at LIMIT ?) RETURNING channel_id, log_offset),"
                        + " through AS (SELECT channel_id, max(log_offset) AS through FROM pruned GROUP BY channel_id),"
                        + " tasks AS (UPDATE task_view v SET pruned_through = GREATEST(COALESCE(v.pruned_through, 0), p.through)"
                        + " FROM through p WHERE v.id = p.channel_id),"
                        + " conversations AS (UPDATE conversation_view v SET pruned_through = GREATEST(COALESCE(v.pruned_through, 0),"
                        + " p.through) FROM through p WHERE v.id = p.channel_id)"
                        + " SELECT count(*) FROM pruned",
                Integer.class, SqlTime.of(clock.instant().minus(retention)), batch));
        return pruned == null ? 0 : pruned;
    }
}
