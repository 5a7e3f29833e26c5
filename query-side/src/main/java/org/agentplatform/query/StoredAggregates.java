package org.agentplatform.query;

import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/** Whether the event store holds an aggregate: a resource created a moment ago that its read model does not show yet. */
public final class StoredAggregates {

    private StoredAggregates() {
    }

    public static Mono<Boolean> exists(DatabaseClient database, UUID aggregate) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM domain_event_entry WHERE aggregate_identifier = :id) AS stored")
                .bind("id", aggregate.toString())
                .map(row -> Boolean.TRUE.equals(row.get("stored", Boolean.class)))
                .one();
    }
}
