package org.agentplatform.query.channel;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.HeldStatements;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.WriteBatching;
import org.axonframework.eventhandling.TrackingToken;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How a projection writes one event of a channel (a task or a conversation): the change of its snapshot (a row
 * of {@code view}: {@code task_view}, {@code conversation_view}), the event's rows in the log at offsets from
 * {@link ChannelOffsets} of its global index in one statement, and a notification on {@value #NOTIFICATIONS}; a
 * processor batch's statements are sent together at its commit ({@link HeldStatements}), with one notification per
 * channel. The rows stay the truth; the notification only wakes readers. Consecutive events of a channel in one batch are
 * written by one statement where their changes fold ({@link Change#fold}).
 */
public final class ChannelLog {

    /** The NOTIFY channel of every log (payload {@code <channel id>:<offset>}), the chunk writer's too. */
    public static final String NOTIFICATIONS = "channel_events";
    public static final String USER_MESSAGE = "user_message";
    public static final String AGENT_MESSAGE = "agent_message";

    private static final String ROW = "(?::uuid, ?::bigint, ?::text, ?::int, ?::text, ?::text, ?::text, ?::jsonb, ?::jsonb, ?::timestamptz)";

    private final String view;
    private final HeldStatements held;

    /** One row an event writes; {@code turn} null for the channel's turn after the change. */
    public record Row(String kind, Integer turn, String role, String status, String text, List<Attachment> attachments,
            Map<String, Object> data) {

        /** The same row with these details. */
        public Row withData(Map<String, Object> details) {
            return new Row(kind, turn, role, status, text, attachments, details);
        }
    }

    /**
     * The view's change: a data-modifying statement on it, without a {@code RETURNING} clause (the log adds one where it
     * needs the channel's {@code turn} after the change). One made by {@link #insert} or {@link #set} knows its columns, and
     * folds with the change of the channel's next event ({@link #fold}).
     */
    public static final class Change {

        private final String statement;
        private final List<Object> arguments;
        /** What the change is made of, when it was made by {@link #insert} or {@link #set}; else null. */
        private final Shape shape;

        private Change(String statement, List<Object> arguments, Shape shape) {
            this.statement = statement;
            this.arguments = Collections.unmodifiableList(new ArrayList<>(arguments));
            this.shape = shape;
        }

        /** The statement, without a {@code RETURNING} clause. */
        public String statement() {
            return statement;
        }

        public List<Object> arguments() {
            return arguments;
        }

        public static Change of(String statement, Object... arguments) {
            return new Change(statement, Arrays.asList(arguments), null);
        }

        /**
         * Moves the snapshot of {@code channel} in {@code view} to the event at {@code sequence} with {@code assignments}
         * (their {@code values} first), unless it already saw it (a replay); {@code last} is the offset of its last row
         * (0 for an event without rows).
         */
        public static Change update(String view, UUID channel, long sequence, Instant at, long last, String assignments,
                Object... values) {
            return update(view, channel, sequence, at, last, assignments, Arrays.asList(values), null);
        }

        /** As the public {@link #update}, made of {@code shape} (null for a change that does not fold). */
        private static Change update(String view, UUID channel, long sequence, Instant at, long last, String assignments,
                List<Object> values, Shape shape) {
            List<Object> arguments = new ArrayList<>(values);
            arguments.addAll(List.of(last, last, sequence, SqlTime.of(at), channel, sequence));
            return new Change("UPDATE " + view + " SET " + assignments + ", last_offset = GREATEST(last_offset, ?),"
                    + " change_offset = GREATEST(change_offset, ?), version = ?, updated_at = ? WHERE id = ? AND version < ?",
                    arguments, shape);
        }

        /**
         * As {@link #update}, with each of {@code columns} set to its value: a change that folds into the change of the channel's
         * event before it.
         */
        public static Change set(String view, UUID channel, long sequence, Instant at, long last, Map<String, Object> columns) {
            return new Shape(view, channel, false, sequence, at, at, last, new LinkedHashMap<>(columns), Set.of()).change();
        }

        /**
         * The snapshot of {@code channel} in {@code view} created by the event at {@code sequence} with {@code columns} (besides
         * its id, offsets, version and instants), unless it exists (a replay); {@code last} as in {@link #update}.
         */
        public static Change insert(String view, UUID channel, long sequence, Instant at, long last, Map<String, Object> columns) {
            return new Shape(view, channel, true, sequence, at, at, last, new LinkedHashMap<>(columns), Set.of()).change();
        }

        /**
         * This change and {@code next}, the change of the channel's next event (its sequence the next one), as one change: an
         * update's columns set over this change's, its sequence and instant, the greater offset. An insert folded so inserts the
         * row as both would leave it, and updates one that exists as {@code next} would (unless it saw the later event). Null
         * when they do not fold: either is not {@linkplain #set structured}, or is of another channel or view, or not the next
         * event, or {@code next} inserts.
         */
        Change fold(Change next) {
            if (shape == null || next.shape == null || next.shape.insert() || !shape.view().equals(next.shape.view())
                    || !shape.channel().equals(next.shape.channel()) || next.shape.sequence() != shape.sequence() + 1) {
                return null;
            }
            LinkedHashMap<String, Object> columns = new LinkedHashMap<>(shape.columns());
            columns.putAll(next.shape.columns());
            Set<String> updated = new LinkedHashSet<>(shape.updated());
            updated.addAll(next.shape.columns().keySet());
            return new Shape(shape.view(), shape.channel(), shape.insert(), next.shape.sequence(), shape.createdAt(), next.shape.at(),
                    Math.max(shape.last(), next.shape.last()), columns, updated).change();
        }

        /** Whether the change sets the channel's {@code turn}. */
        boolean setsTurn() {
            return shape == null || shape.columns().containsKey("turn");
        }
    }

    /**
     * A change that knows its columns: an insert of the view's row (with {@code updated}, the columns of the updates folded into
     * it), or an update of it.
     */
    private record Shape(String view, UUID channel, boolean insert, long sequence, Instant createdAt, Instant at, long last,
            LinkedHashMap<String, Object> columns, Set<String> updated) {

        Change change() {
            if (!insert) {
                return Change.update(view, channel, sequence, at, last, String.join(" = ?, ", columns.keySet()) + " = ?",
                        new ArrayList<>(columns.values()), this);
            }
            List<Object> arguments = new ArrayList<>();
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(view).append(" (id");
            arguments.add(channel);
            columns.forEach((column, value) -> {
                sql.append(", ").append(column);
                arguments.add(value);
            });
            sql.append(", last_offset, change_offset, version, created_at, updated_at) VALUES (?")
                    .append(", ?".repeat(columns.size() + 5)).append(") ON CONFLICT (id) DO ");
            // the row's creation instant is the insert's own event's, the last change's the folded update's
            arguments.addAll(List.of(last, last, sequence, SqlTime.of(createdAt), SqlTime.of(at)));
            if (updated.isEmpty()) {
                return new Change(sql.append("NOTHING").toString(), arguments, this);
            }
            sql.append("UPDATE SET ");
            updated.forEach(column -> sql.append(column).append(" = EXCLUDED.").append(column).append(", "));
            sql.append("last_offset = GREATEST(").append(view).append(".last_offset, EXCLUDED.last_offset), change_offset = GREATEST(")
                    .append(view).append(".change_offset, EXCLUDED.change_offset), version = EXCLUDED.version,"
                            + " updated_at = EXCLUDED.updated_at WHERE ").append(view).append(".version < EXCLUDED.version");
            return new Change(sql.toString(), arguments, this);
        }
    }

    /** {@code batching}: whether the projection's statements may wait for its commit ({@link HeldStatements}). */
    public ChannelLog(JdbcTemplate jdbc, String view, WriteBatching batching) {
        this.view = view;
        this.held = new HeldStatements(jdbc, batching, NOTIFICATIONS);
    }

    /** A message row (the caller's or the agent's, by its role). */
    public static Row message(TaskMessage message, Integer turn) {
        return new Row(TaskMessage.USER.equals(message.role()) ? USER_MESSAGE : AGENT_MESSAGE, turn, message.role(), null, message.text(),
                message.attachments(), null);
    }

    /** A status row of {@code kind}, with its details ({@code data}, null for none). */
    public static Row status(String kind, Integer turn, String status, Map<String, Object> data) {
        return new Row(kind, turn, null, status, null, List.of(), data == null || data.isEmpty() ? null : data);
    }

    /**
     * The rows of the event at {@code globalIndex} as {@link ChannelReads} reads them back once written, before they
     * are: a row without a turn takes {@code turn}, the channel's turn after the change.
     */
    public static List<ChannelEntry> entries(long globalIndex, Instant at, int turn, List<Row> rows) {
        long offset = ChannelOffsets.ofEvent(globalIndex);
        Instant stored = SqlTime.asStored(at);
        List<ChannelEntry> entries = new ArrayList<>(rows.size());
        for (int index = 0; index < rows.size(); index++) {
            Row row = rows.get(index);
            List<Map<String, Object>> attachments = attachments(row.attachments());
            entries.add(new ChannelEntry(offset + index, row.kind(), row.turn() == null ? turn : row.turn(), row.role(), row.status(),
                    row.text(), attachments == null ? List.of() : List.copyOf(attachments), row.data(), stored));
        }
        return entries;
    }

    /** The offset of the last row the event at {@code globalIndex} writes with {@code rows} (at least one) rows. */
    public static long lastOffset(long globalIndex, int rows) {
        return ChannelOffsets.ofEvent(globalIndex) + rows - 1;
    }

    /**
     * Applies the view's change, then logs the rows (a replay writes them once), in one statement, and notifies; held
     * until the commit while the projection's {@link WriteBatching} allows ({@link HeldStatements}). A row without a
     * turn takes the turn the change returns (or, when the change did not apply: a replay, the view's). An event without
     * rows changes the view only, held like the others: the statements of a channel run in the order of its events, or
     * a later event's {@code version} would make an earlier one's change skip as seen. Held right after the write of the
     * channel's previous event, the two go as one statement when their changes fold ({@link Change#fold}: a task's creation
     * and the hand-off of its first turn, a turn's start and its outcome), so the view's row is written once for both.
     */
    public void write(UUID channel, long globalIndex, Instant at, Change change, List<Row> rows) {
        if (rows.size() > ChannelOffsets.EVENT_ROWS) {
            throw new IllegalArgumentException("An event writes at most two rows, not " + rows.size());
        }
        writeAt(channel, ChannelOffsets.ofEvent(globalIndex), at, change, rows);
    }

    /** As {@link #write}, with the rows from {@code offset} on (an event that writes in an earlier event's window). */
    public void writeAt(UUID channel, long offset, Instant at, Change change, List<Row> rows) {
        List<Object[]> logged = new ArrayList<>(rows.size());
        boolean turns = true;
        for (int index = 0; index < rows.size(); index++) {
            Row row = rows.get(index);
            turns &= row.turn() != null;
            logged.add(new Object[] {channel, offset + index, row.kind(), row.turn(), row.role(), row.status(), row.text(),
                    JsonColumns.write(attachments(row.attachments())), JsonColumns.write(row.data()), SqlTime.of(at)});
        }
        held.run(channel, new Write(view, channel, change, logged, turns),
                rows.isEmpty() ? channel + ":view" : channel + ":" + (offset + rows.size() - 1));
    }

    /**
     * An event's change of the view with its rows of the log ({@code turns}: each names its turn), as one statement; folded
     * with the channel's next event's when their changes fold ({@link Change#fold}), unless that one sets the turn which rows
     * of this one take.
     */
    private record Write(String view, UUID channel, Change change, List<Object[]> rows, boolean turns) implements HeldStatements.Foldable {

        @Override
        public HeldStatements.Foldable fold(HeldStatements.Foldable next) {
            if (!(next instanceof Write later) || (!turns && later.change().setsTurn())) {
                return null;
            }
            Change folded = change.fold(later.change());
            if (folded == null) {
                return null;
            }
            List<Object[]> both = new ArrayList<>(rows);
            both.addAll(later.rows());
            return new Write(view, channel, folded, both, turns && later.turns());
        }

        @Override
        public String sql() {
            if (rows.isEmpty()) {
                return change.statement();
            }
            return "WITH changed AS (" + change.statement() + " RETURNING turn),"
                    + " current AS (SELECT COALESCE((SELECT turn FROM changed LIMIT 1), (SELECT turn FROM " + view + " WHERE id = ?), 0)"
                    + " AS turn)"
                    + " INSERT INTO channel_message (channel_id, log_offset, kind, turn, role, status, text, attachments, data,"
                    + " occurred_at) SELECT r.channel_id, r.log_offset, r.kind, COALESCE(r.turn, current.turn), r.role, r.status, r.text,"
                    + " r.attachments, r.data, r.occurred_at FROM current, (VALUES " + String.join(", ", Collections.nCopies(rows.size(), ROW))
                    + ") AS r(channel_id, log_offset, kind, turn, role, status, text, attachments, data, occurred_at) ON CONFLICT DO NOTHING";
        }

        @Override
        public Object[] arguments() {
            List<Object> arguments = new ArrayList<>(change.arguments());
            if (!rows.isEmpty()) {
                arguments.add(channel);
                rows.forEach(row -> arguments.addAll(Arrays.asList(row)));
            }
            return arguments.toArray();
        }
    }

    /** The event's own global index; a reader that does not add it (none today) falls back to its token's position. */
    public static long globalIndex(Long index, TrackingToken token) {
        if (index != null) {
            return index;
        }
        return token.position().orElseThrow(() -> new IllegalStateException("The event's tracking token has no position: " + token));
    }

    private static List<Map<String, Object>> attachments(List<Attachment> attachments) {
        if (attachments.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> json = new ArrayList<>();
        for (Attachment attachment : attachments) {
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
}
