package org.agentplatform.infra.eventstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.SortedSet;
import java.util.Spliterators;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.agentplatform.kernel.FrameworkReplacement;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;

/**
 * The JDBC event store for aggregates that are never snapshotted (none of ours is: each lives a few
 * dozen events at most). Axon asks the snapshot table before every aggregate load; here that question
 * is answered without a query. Whoever configures a snapshot trigger must drop this class with it.
 * <p>
 * An aggregate's events are read in one query when they fit one batch. Axon's JDBC engine reads batch after batch
 * until one comes back empty (its query bounds the sequence numbers, so a store whose aggregates have gaps in them
 * could return a short batch before the end): a second query for every load. Ours has none: an aggregate's events
 * are appended with consecutive sequence numbers and never deleted, so a batch shorter than the batch size is the last.
 * <p>
 * Each event's timestamp is parsed once as its row is read ({@link StoredTimestamps}), where Axon's engine parses the
 * text with a general ISO-8601 parser to decide a tracking token's gaps and again for the message. The tokens are
 * advanced as Axon's engine advances them ({@link GapRule}).
 * <p>
 * A batch of the stream without gaps is read with a {@code LIMIT} of the batch size ({@link #readWithoutGaps}). It changes
 * no answer (the range holds at most that many indexes), but it lets PostgreSQL keep one plan for the statement: without
 * it, the planner's estimate for a range of two parameters is a share of the whole table, so every execution was planned
 * again as a custom plan, which cost more than running it (about 0.08 ms a read, 1.6 reads per task in a burst).
 * <p>
 * A read of the stream ends with the batch that reached the store's newest event as its statement saw it
 * ({@link #readEventData(TrackingToken, boolean)}): each batch's statement also reads the store's highest global index.
 * Axon's read goes on batch after batch until one comes back empty, and an empty batch then asks the store where its
 * next event lies (in case a gap longer than a batch is ahead): a transaction of two statements more for every read that
 * found events, most reads of a busy node's reader. An event committed after a batch's statement wakes the reader again.
 */
@FrameworkReplacement("Axon: JdbcEventStorageEngine (snapshot reads, aggregate batches, timestamp parsing, the stream's read statements and where a read ends)")
final class SnapshotFreeStorageEngine extends JdbcEventStorageEngine {

    /** Axon's default lowest global index, below which a first token has no gaps. */
    private static final long LOWEST_GLOBAL_INDEX = 1;
    /** The column of a stream batch's rows holding the store's highest global index as the statement saw it. */
    private static final String STORE_HEAD = "store_head";

    private final GapRule gaps;

    SnapshotFreeStorageEngine(JdbcEventStorageEngine.Builder builder, GapRule gaps) {
        super(builder.maxGapOffset(gaps.maxGapOffset()).gapTimeout((int) gaps.gapTimeout().toMillis())
                .lowestGlobalSequence(LOWEST_GLOBAL_INDEX).readEventDataWithoutGaps(SnapshotFreeStorageEngine::readWithoutGaps)
                .readEventDataWithGaps(SnapshotFreeStorageEngine::readWithGaps));
        this.gaps = gaps;
    }

    /**
     * Axon's read of the events after {@code globalIndex} (up to {@code batchSize} indexes above it), with the batch size as
     * a {@code LIMIT} for the planner's sake.
     */
    static PreparedStatement readWithoutGaps(Connection connection, EventSchema schema, long globalIndex, int batchSize)
            throws SQLException {
        String index = schema.globalIndexColumn();
        PreparedStatement statement = connection.prepareStatement("SELECT " + withStoreHead(schema) + " FROM "
                + schema.domainEventTable() + " WHERE (" + index + " > ? AND " + index + " <= ?) ORDER BY " + index + " ASC LIMIT "
                + batchSize);
        statement.setLong(1, globalIndex);
        statement.setLong(2, globalIndex + batchSize);
        return statement;
    }

    /** Axon's read of the events after {@code globalIndex} and of those in the token's {@code gaps}, with the store's head. */
    static PreparedStatement readWithGaps(Connection connection, EventSchema schema, long globalIndex, int batchSize, List<Long> gaps)
            throws SQLException {
        String index = schema.globalIndexColumn();
        PreparedStatement statement = connection.prepareStatement("SELECT " + withStoreHead(schema) + " FROM "
                + schema.domainEventTable() + " WHERE (" + index + " > ? AND " + index + " <= ?) OR " + index + " IN ("
                + String.join(",", Collections.nCopies(gaps.size(), "?")) + ") ORDER BY " + index + " ASC");
        statement.setLong(1, globalIndex);
        statement.setLong(2, globalIndex + batchSize);
        for (int gap = 0; gap < gaps.size(); gap++) {
            statement.setLong(gap + 3, gaps.get(gap));
        }
        return statement;
    }

    /** A stream batch's columns: the event's, and the store's highest global index (one look at the index's end). */
    private static String withStoreHead(EventSchema schema) {
        return schema.trackedEventFields() + ", (SELECT max(" + schema.globalIndexColumn() + ") FROM " + schema.domainEventTable() + ") AS "
                + STORE_HEAD;
    }

    /** The stream from {@code token}, batch after batch, up to the one that reached the store's head as it saw it. */
    @Override
    protected Stream<? extends TrackedEventData<?>> readEventData(TrackingToken token, boolean mayBlock) {
        return StreamSupport.stream(new UpToStoreHead(token, batchSize()), false);
    }

    /** Batches read one after the other, each from the token of the event before. */
    private final class UpToStoreHead extends Spliterators.AbstractSpliterator<TrackedEventData<?>> {

        private final int batchSize;
        private TrackingToken last;
        private Iterator<? extends TrackedEventData<?>> batch = Collections.emptyIterator();
        private boolean headReached;

        UpToStoreHead(TrackingToken from, int batchSize) {
            super(Long.MAX_VALUE, NONNULL | ORDERED | DISTINCT);
            this.last = from;
            this.batchSize = batchSize;
        }

        @Override
        public boolean tryAdvance(Consumer<? super TrackedEventData<?>> action) {
            while (!batch.hasNext()) {
                if (headReached) {
                    return false;
                }
                // an empty batch: Axon's engine has also looked for an event beyond a gap longer than a batch
                List<? extends TrackedEventData<?>> read = fetchTrackedEvents(last, batchSize);
                headReached = read.isEmpty() || read.getLast() instanceof Headed<?> newest
                        && newest.trackingToken() instanceof GapAwareTrackingToken reached && reached.getIndex() >= newest.storeHead;
                batch = read.iterator();
            }
            TrackedEventData<?> next = batch.next();
            last = next.trackingToken();
            action.accept(next);
            return true;
        }
    }

    /** An event of a stream batch, with the store's head as the batch's statement saw it. */
    private static final class Headed<T> extends TrackedDomainEventData<T> {

        private final long storeHead;

        Headed(TrackingToken token, DomainEventData<T> event, long storeHead) {
            super(token, event);
            this.storeHead = storeHead;
        }
    }

    @Override
    protected boolean fetchForAggregateUntilEmpty() {
        return false;
    }

    @Override
    protected Stream<? extends DomainEventData<?>> readSnapshotData(String aggregateIdentifier) {
        return Stream.empty();
    }

    @Override
    protected TrackedEventData<?> getTrackedEventData(ResultSet row, GapAwareTrackingToken previous) throws SQLException {
        EventSchema schema = schema();
        long index = row.getLong(schema.globalIndexColumn());
        String aggregate = row.getString(schema.aggregateIdentifierColumn());
        String id = row.getString(schema.eventIdentifierColumn());
        // an event published outside an aggregate is stored with its own id as the aggregate's
        Entry<?> event = entry(row, schema, id.equals(aggregate) ? null : aggregate, id);
        GapAwareTrackingToken token = previous != null ? gaps.advance(previous, index, event.getTimestamp())
                : GapAwareTrackingToken.newInstance(index, gaps.keepsGaps(event.getTimestamp()) ? allBelow(index) : Collections.emptySortedSet());
        return new Headed<>(token, event, row.getLong(STORE_HEAD));
    }

    @Override
    protected DomainEventData<?> getDomainEventData(ResultSet row) throws SQLException {
        EventSchema schema = schema();
        return entry(row, schema, row.getString(schema.aggregateIdentifierColumn()), row.getString(schema.eventIdentifierColumn()));
    }

    private Entry<?> entry(ResultSet row, EventSchema schema, String aggregate, String id) throws SQLException {
        return new Entry<>(row.getString(schema.typeColumn()), aggregate, row.getLong(schema.sequenceNumberColumn()), id,
                readTimeStamp(row, schema.timestampColumn()).toString(), row.getString(schema.payloadTypeColumn()),
                row.getString(schema.payloadRevisionColumn()), readPayload(row, schema.payloadColumn()),
                readPayload(row, schema.metaDataColumn()));
    }

    /** The gaps of a first token at {@code index}: every index below it, from the lowest one on. */
    private static SortedSet<Long> allBelow(long index) {
        SortedSet<Long> gaps = new TreeSet<>();
        for (long gap = Math.min(LOWEST_GLOBAL_INDEX, index); gap < index; gap++) {
            gaps.add(gap);
        }
        return gaps;
    }

    /** A stored event whose timestamp was parsed as its row was read. */
    private static final class Entry<T> extends GenericDomainEventEntry<T> {

        private final Instant timestamp;

        Entry(String type, String aggregate, long sequenceNumber, String id, String timestamp, String payloadType,
                String payloadRevision, T payload, T metaData) {
            super(type, aggregate, sequenceNumber, id, timestamp, payloadType, payloadRevision, payload, metaData);
            this.timestamp = StoredTimestamps.parse(timestamp);
        }

        @Override
        public Instant getTimestamp() {
            return timestamp;
        }
    }
}
