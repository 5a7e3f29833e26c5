package org.agentplatform.infra.axon;

import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventData;
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
 */
final class SnapshotFreeStorageEngine extends JdbcEventStorageEngine {

    SnapshotFreeStorageEngine(JdbcEventStorageEngine.Builder builder) {
        super(builder);
    }

    @Override
    protected boolean fetchForAggregateUntilEmpty() {
        return false;
    }

    @Override
    protected Stream<? extends DomainEventData<?>> readSnapshotData(String aggregateIdentifier) {
        return Stream.empty();
    }
}
