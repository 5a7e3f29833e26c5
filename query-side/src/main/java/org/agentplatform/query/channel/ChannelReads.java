package org.agentplatform.query.channel;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RowQuery;
import org.agentplatform.query.StoredAggregates;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of a channel's log (a task's or a conversation's): its rows in offset order, its newest messages, its true last offset. */
public final class ChannelReads {

    /**
     * A chunk is readable once a row before it in its window is (the rows of the event that opened its window, or the
     * status saying its turn began): the runtime streams a turn's chunks as soon as the turn begins, and the projection
     * may write that status a moment later, with a lower offset. Shown before it, the chunks would move a reader's
     * cursor past the status row.
     */
    private static final String READABLE_CHUNK = "EXISTS (SELECT 1 FROM channel_message m WHERE m.channel_id = c.channel_id"
            + " AND m.log_offset >= (c.log_offset >> " + ChannelOffsets.WINDOW_BITS + ") << " + ChannelOffsets.WINDOW_BITS
            + " AND m.log_offset < ((c.log_offset >> " + ChannelOffsets.WINDOW_BITS + ") << " + ChannelOffsets.WINDOW_BITS + ") + "
            + ChannelOffsets.FIRST_CHUNK + ")";
    private static final String MESSAGES = "SELECT log_offset, kind, turn, role, status, text, attachments, data, occurred_at"
            + " FROM channel_message WHERE channel_id = :id AND log_offset > :since";
    private static final String CHUNKS = "SELECT log_offset, kind, turn, 'agent' AS role, NULL AS status, text, NULL::jsonb AS attachments,"
            + " NULL::jsonb AS data, created_at AS occurred_at FROM channel_chunk c WHERE channel_id = :id AND log_offset > :since AND "
            + READABLE_CHUNK;

    private final DatabaseClient database;

    /** A channel's messages and statuses (no chunks) by {@code :id} after {@code :since}, oldest first. */
    public static final RowQuery<ChannelEntry> MESSAGES_OF = new RowQuery<>(MESSAGES + " ORDER BY log_offset", ChannelReads::entry);

    public ChannelReads(DatabaseClient database) {
        this.database = database;
    }

    /**
     * The select-list column of a view ({@code task_view}, {@code conversation_view}) that holds the log's true last
     * offset as {@code last_offset}: its events' rows (kept in the view) or the readable chunks streamed after them.
     */
    public static String lastOffsetColumn(String view) {
        return "GREATEST(" + view + ".last_offset, (SELECT max(c.log_offset) FROM channel_chunk c WHERE c.channel_id = " + view + ".id"
                + " AND " + READABLE_CHUNK + ")) AS last_offset";
    }

    /**
     * The snapshot {@code find} reads, also of a task or conversation created a moment ago that the read model does not
     * show yet (the event store knows it): that one once its projection commits, waiting up to {@code wait} (woken by
     * the commit's notification). Empty for an id the event store does not know.
     */
    public <T> Mono<T> findStored(UUID channel, Supplier<Mono<T>> find, ReadModelWaits waits, Duration wait) {
        return StoredAggregates.find(database, channel, find, () -> waits.until(ChannelLog.NOTIFICATIONS, channel, find, found -> true, wait));
    }

    /** Rows after {@code since}, in offset order; chunks only when asked for. */
    public Flux<ChannelEntry> log(UUID channel, long since, boolean withChunks, int limit) {
        String sql = withChunks ? MESSAGES + " UNION ALL " + CHUNKS : MESSAGES;
        return database.sql(sql + " ORDER BY log_offset LIMIT :limit")
                .bind("id", channel)
                .bind("since", since)
                .bind("limit", limit)
                .map(ChannelReads::entry)
                .all();
    }

    /** The newest {@code cap} rows of the log without chunks, oldest first, and whether older ones were left out. */
    public Mono<History> history(UUID channel, int cap) {
        return database.sql(MESSAGES + " ORDER BY log_offset DESC LIMIT :limit")
                .bind("id", channel)
                .bind("since", -1L)
                .bind("limit", cap + 1)
                .map(ChannelReads::entry)
                .all()
                .collectList()
                .map(newestFirst -> History.newest(newestFirst.reversed(), cap));
    }

    /** The start of a log's history as a single read shows it. */
    public record History(List<ChannelEntry> entries, boolean truncated) {

        /** The newest {@code cap} rows of a log read oldest first, and whether older ones were left out. */
        public static History newest(List<ChannelEntry> oldestFirst, int cap) {
            int from = Math.max(0, oldestFirst.size() - cap);
            return new History(List.copyOf(oldestFirst.subList(from, oldestFirst.size())), from > 0);
        }
    }

    @SuppressWarnings("unchecked")
    private static ChannelEntry entry(Readable row) {
        Object attachments = JsonColumns.readValue(row, "attachments");
        return new ChannelEntry(
                row.get("log_offset", Long.class),
                row.get("kind", String.class),
                row.get("turn", Integer.class),
                row.get("role", String.class),
                row.get("status", String.class),
                row.get("text", String.class),
                attachments == null ? List.of() : (List<Object>) attachments,
                JsonColumns.readObject(row, "data"),
                row.get("occurred_at", Instant.class));
    }
}
