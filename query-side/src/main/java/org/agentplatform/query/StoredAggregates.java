package org.agentplatform.query;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/** Reads of a resource created a moment ago, which the event store already holds and its read model may not show yet. */
public final class StoredAggregates {

    private StoredAggregates() {
    }

    /**
     * What {@code find} reads; when it finds nothing and the event store holds {@code aggregate}, what
     * {@code projected} answers (a wait for the read model to catch up). Empty for an aggregate the store does not know.
     */
    public static <T> Mono<T> find(DatabaseClient database, UUID aggregate, Supplier<Mono<T>> find, Supplier<Mono<T>> projected) {
        return find.get().switchIfEmpty(Mono.defer(() -> exists(database, aggregate)
                .filter(stored -> stored)
                .flatMap(stored -> projected.get())));
    }

    /**
     * After {@code find} found nothing: when the event store holds {@code aggregate}, its read model's row ({@code row},
     * whoever owns it, also a deleted one) once its projection commits, waited for up to {@code wait} on {@code waits}'
     * notifications about {@code aggregate}; {@link ReadModelBehind} when the wait ends first. Empty for an aggregate the
     * store does not know.
     */
    public static <T> Mono<T> awaitRow(DatabaseClient database, ReadModelWaits waits, UUID aggregate, Supplier<Mono<T>> row,
            Duration wait) {
        return find(database, aggregate, Mono::empty, () -> waits.until(aggregate, row, shown -> true, wait)
                .switchIfEmpty(Mono.error(() -> new ReadModelBehind(aggregate))));
    }

    private static Mono<Boolean> exists(DatabaseClient database, UUID aggregate) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM domain_event_entry WHERE aggregate_identifier = :id) AS stored")
                .bind("id", aggregate.toString())
                .map(row -> Boolean.TRUE.equals(row.get("stored", Boolean.class)))
                .one();
    }
}
