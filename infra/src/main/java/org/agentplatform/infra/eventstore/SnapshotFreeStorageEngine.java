package org.agentplatform.infra.eventstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.agentplatform.kernel.FrameworkReplacement;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
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
 */
@FrameworkReplacement("Axon: JdbcEventStorageEngine (snapshot reads, aggregate batches, timestamp parsing, the stream's read statement)")
final class SnapshotFreeStorageEngine extends JdbcEventStorageEngine {

    /** Axon's default lowest global index, below which a first token has no gaps. */
    private static final long LOWEST_GLOBAL_INDEX = 1;

    private final GapRule gaps;

    SnapshotFreeStorageEngine(JdbcEventStorageEngine.Builder builder, GapRule gaps) {
        super(builder.maxGapOffset(gaps.maxGapOffset()).gapTimeout((int) gaps.gapTimeout().toMillis())
                .lowestGlobalSequence(LOWEST_GLOBAL_INDEX).readEventDataWithoutGaps(SnapshotFreeStorageEngine::readWithoutGaps));
        this.gaps = gaps;
    }

    /**
     * Axon's read of the events after {@code globalIndex} (up to {@code batchSize} indexes above it), with the batch size as
     * a {@code LIMIT} for the planner's sake.
     */
    static PreparedStatement readWithoutGaps(Connection connection, EventSchema schema, long globalIndex, int batchSize)
            throws SQLException {
        String index = schema.globalIndexColumn();
        PreparedStatement statement = connection.prepareStatement("SELECT " + schema.trackedEventFields() + " FROM "
                + schema.domainEventTable() + " WHERE (" + index + " > ? AND " + index + " <= ?) ORDER BY " + index + " ASC LIMIT "
                + batchSize);
        statement.setLong(1, globalIndex);
        statement.setLong(2, globalIndex + batchSize);
        return statement;
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
        return new TrackedDomainEventData<>(token, event);
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
