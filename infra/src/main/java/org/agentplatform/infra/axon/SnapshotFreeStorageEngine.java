package org.agentplatform.infra.axon;

import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;

/**
 * The JDBC event store for aggregates that are never snapshotted (none of ours is: each lives a few
 * dozen events at most). Axon asks the snapshot table before every aggregate load; here that question
 * is answered without a query. Whoever configures a snapshot trigger must drop this class with it.
 */
final class SnapshotFreeStorageEngine extends JdbcEventStorageEngine {

    SnapshotFreeStorageEngine(JdbcEventStorageEngine.Builder builder) {
        super(builder);
    }

    @Override
    protected Stream<? extends DomainEventData<?>> readSnapshotData(String aggregateIdentifier) {
        return Stream.empty();
    }
}
