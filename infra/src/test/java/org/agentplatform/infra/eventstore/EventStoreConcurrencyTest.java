package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.agentplatform.infra.support.PlatformTest;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.jackson3.Jackson3Serializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event store on PostgreSQL: two appends racing for the same aggregate sequence end in one
 * success and one {@link ConcurrencyException} (for the creating event, Axon's
 * {@link AggregateStreamCreationException}), never a fatal {@link EventStoreException}; payloads are
 * JSON written by Axon's own mapper.
 */
@PlatformTest
class EventStoreConcurrencyTest {

    @Autowired
    EventStorageEngine storage;

    @Autowired
    TransactionManager transactions;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ConnectionProvider connections;

    @Autowired
    @Qualifier("eventSerializer")
    Serializer eventSerializer;

    @Autowired
    JsonMapper webMapper;

    @Test
    void racingAppendsEndInOneSuccessAndOneConcurrencyException() throws Exception {
        String aggregate = UUID.randomUUID().toString();
        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, 0, "created")));
        assertRaceFor(aggregate, 1, ConcurrencyException.class);
    }

    /** Creating the same aggregate twice is Axon's creation conflict (idempotent creates answer 409 on it). */
    @Test
    void racingCreationsEndInOneSuccessAndOneStreamCreationConflict() throws Exception {
        assertRaceFor(UUID.randomUUID().toString(), 0, AggregateStreamCreationException.class);
    }

    @Test
    void anAggregateIsReadWholeAlsoWhenItsEventsFillWholeBatches() {
        // the engine's batches are 100 events: one short batch, exactly one full, several with a short last
        for (int count : List.of(3, 100, 250)) {
            String aggregate = UUID.randomUUID().toString();
            transactions.executeInTransaction(() -> {
                for (int sequence = 0; sequence < count; sequence++) {
                    storage.appendEvents(event(aggregate, sequence, "note " + sequence));
                }
            });
            assertThat(storage.readEvents(aggregate).asStream().map(event -> event.getSequenceNumber()).toList())
                    .as("%d events", count)
                    .isEqualTo(java.util.stream.LongStream.range(0, count).boxed().toList());
            assertThat(storage.readEvents(aggregate, count - 1).asStream().count()).as("from the last of %d", count).isEqualTo(1);
        }
    }

    @Test
    void eventsAreStoredAsJsonByAxonsOwnSerializer() {
        String aggregate = UUID.randomUUID().toString();
        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, 0, "json please")));
        String payload = jdbc.queryForObject(
                "SELECT convert_from(payload, 'UTF8') FROM domain_event_entry WHERE aggregate_identifier = ?", String.class, aggregate);
        assertThat(payload).isEqualTo("{\"note\":\"json please\"}");
        assertThat(eventSerializer).isInstanceOf(Jackson3Serializer.class);
        assertThat(((Jackson3Serializer) eventSerializer).getObjectMapper()).isNotSameAs(webMapper);
    }

    /**
     * Our engine parses the stored timestamps itself and advances the tokens itself: what it reads is what Axon's own
     * engine, set up alike, reads from the same rows (recent events keep the gaps below them, old ones do not, a rolled
     * back append leaves a gap).
     */
    @Test
    void eventsTokensAndTimestampsAreReadAsAxonsOwnEngineReadsThem() {
        JdbcEventStorageEngine axons = JdbcEventStorageEngine.builder()
                .eventSerializer(eventSerializer)
                .snapshotSerializer(eventSerializer)
                .connectionProvider(connections)
                .transactionManager(transactions)
                .schema(AxonConfiguration.EVENTS)
                .dataType(byte[].class)
                .maxGapOffset(AxonConfiguration.GAPS.maxGapOffset())
                .gapTimeout((int) AxonConfiguration.GAPS.gapTimeout().toMillis())
                .build();
        TrackingToken start = storage.createHeadToken();
        String aggregate = UUID.randomUUID().toString();
        Instant old = Instant.now().minus(AxonConfiguration.GAPS.gapTimeout().multipliedBy(3)).truncatedTo(ChronoUnit.MILLIS);
        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, 0, "recent")));
        Transaction rolledBack = transactions.startTransaction();
        storage.appendEvents(event(UUID.randomUUID().toString(), 0, "never"));
        rolledBack.rollback();
        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, 1, "recent after a gap")));
        transactions.executeInTransaction(() -> storage.appendEvents(
                new GenericDomainEventMessage<>("Probe", aggregate, 2, new Noted("old"), MetaData.emptyInstance(),
                        UUID.randomUUID().toString(), old)));
        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, 3, "recent again")));

        List<String> ours = read(storage, start, Long.MAX_VALUE);
        assertThat(ours).hasSize(4).anySatisfy(line -> assertThat(line).contains(old.toString()));
        assertThat(ours).isEqualTo(read(axons, start, Long.MAX_VALUE));
        // from no token at all (a processor starting at the tail): every index below the first is a gap while it is recent
        assertThat(read(storage, null, 20)).isEqualTo(read(axons, null, 20));
    }

    /** The first {@code limit} events after {@code start}, each as its token, identifier, aggregate, sequence and time. */
    private static List<String> read(EventStorageEngine engine, TrackingToken start, long limit) {
        try (java.util.stream.Stream<? extends TrackedEventMessage<?>> events = engine.readEvents(start, false)) {
            return events.limit(limit).map(event -> event.trackingToken() + " " + event.getIdentifier() + " "
                    + (event instanceof DomainEventMessage<?> domain ? domain.getAggregateIdentifier() + "#" + domain.getSequenceNumber() : "-")
                    + " " + event.getTimestamp()).toList();
        }
    }

    private void assertRaceFor(String aggregate, long sequence, Class<? extends Exception> refusal) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Throwable>> outcomes = new ArrayList<>();
            for (String note : List.of("left", "right")) {
                Callable<Throwable> append = () -> {
                    start.await(10, TimeUnit.SECONDS);
                    try {
                        transactions.executeInTransaction(() -> storage.appendEvents(event(aggregate, sequence, note)));
                        return null;
                    } catch (Throwable failure) {
                        return failure;
                    }
                };
                outcomes.add(pool.submit(append));
            }
            List<Throwable> failures = new ArrayList<>();
            for (Future<Throwable> outcome : outcomes) {
                Throwable failure = outcome.get(30, TimeUnit.SECONDS);
                if (failure != null) {
                    failures.add(failure);
                }
            }
            assertThat(failures).hasSize(1);
            assertThat(failures.getFirst()).isInstanceOf(refusal).isNotInstanceOf(EventStoreException.class);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                    Integer.class, aggregate)).isEqualTo((int) sequence + 1);
        } finally {
            pool.shutdownNow();
        }
    }

    private static GenericDomainEventMessage<Noted> event(String aggregate, long sequence, String note) {
        return new GenericDomainEventMessage<>("Probe", aggregate, sequence, new Noted(note));
    }

    record Noted(String note) {
    }
}
