package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.agentplatform.infra.support.PlatformTest;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** The storage engine's read of the stream, on the real store. */
@PlatformTest
class SnapshotFreeStorageEngineTest {

    private static final int BATCH = 64;

    @Autowired
    EventStorageEngine storage;

    @Autowired
    TransactionManager transactions;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theStreamReadsEveryEventInOrderAcrossFullBatches() {
        long before = jdbc.queryForObject("SELECT COALESCE(max(global_index), 0) FROM domain_event_entry", Long.class);
        String aggregate = UUID.randomUUID().toString();
        // more than two of the engine's batches (100), one after the other, so that whole batches are read full
        for (int appended = 0; appended < 250; appended += 50) {
            append(aggregate, appended, 50);
        }
        List<Object> read = new ArrayList<>();
        try (Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(GapAwareTrackingToken.newInstance(before, List.of()), false)) {
            events.filter(event -> event.getPayload() instanceof String text && text.startsWith("event ")).forEach(event -> read.add(event.getPayload()));
        }
        assertThat(read).containsExactlyElementsOf(Stream.iterate(0, n -> n + 1).limit(250).map(n -> (Object) ("event " + n)).toList());
    }

    /**
     * A read ends with the batch that reached the store's newest event as its statement saw it: an event appended after
     * that is the next read's. Axon's stream read again until a batch came back empty, and then asked the store where its
     * next event was: a transaction of two statements more for every read that found events.
     */
    @Test
    void aReadEndsWithTheBatchThatReachedTheStoresNewestEvent() {
        long before = jdbc.queryForObject("SELECT COALESCE(max(global_index), 0) FROM domain_event_entry", Long.class);
        String aggregate = UUID.randomUUID().toString();
        append(aggregate, 0, 3);
        try (Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(GapAwareTrackingToken.newInstance(before, List.of()), false)) {
            Iterator<? extends TrackedEventMessage<?>> probes = events.filter(event -> isProbeOf(event, aggregate)).iterator();
            for (int n = 0; n < 3; n++) {
                assertThat(probes.next().getPayload()).isEqualTo("event " + n);
            }
            append(aggregate, 3, 1);
            assertThat(probes.hasNext()).as("the read ended at the head its batch saw").isFalse();
        }
        try (Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(GapAwareTrackingToken.newInstance(before, List.of()), false)) {
            assertThat(events.filter(event -> isProbeOf(event, aggregate)).map(event -> (Object) event.getPayload()).toList())
                    .as("the next read").containsExactly("event 0", "event 1", "event 2", "event 3");
        }
    }

    /** A batch made short by an append rolled back inside its range is not the end: the events after it are read on. */
    @Test
    void aBatchShortOfAGapIsNotTheEndOfTheRead() {
        long before = jdbc.queryForObject("SELECT COALESCE(max(global_index), 0) FROM domain_event_entry", Long.class);
        String aggregate = UUID.randomUUID().toString();
        append(aggregate, 0, 10);
        // indexes no event will take, within the first batch's range (as appends rolled back leave them)
        jdbc.execute("SELECT setval(pg_get_serial_sequence('domain_event_entry', 'global_index'),"
                + " nextval(pg_get_serial_sequence('domain_event_entry', 'global_index')) + 5)");
        append(aggregate, 10, 150);
        try (Stream<? extends TrackedEventMessage<?>> events = storage.readEvents(GapAwareTrackingToken.newInstance(before, List.of()), false)) {
            assertThat(events.filter(event -> isProbeOf(event, aggregate)).count()).as("every event, across the gaps").isEqualTo(160);
        }
    }

    private void append(String aggregate, int from, int count) {
        transactions.executeInTransaction(() -> storage.appendEvents(Stream.iterate(from, n -> n + 1).limit(count)
                .map(n -> new GenericDomainEventMessage<>("Probe", aggregate, n, "event " + n)).toList()));
    }

    private static boolean isProbeOf(TrackedEventMessage<?> event, String aggregate) {
        return event instanceof DomainEventMessage<?> stored && aggregate.equals(stored.getAggregateIdentifier());
    }

    /**
     * Without its limit, the planner's estimate for the range is a share of the table and every execution is planned again
     * (custom plans only, once the table is large); with it, PostgreSQL keeps one plan once the statement has run a few times
     * on a connection. Read from a copy of the store's table filled with 200,000 rows, so as not to fill the store.
     */
    @Test
    void theReadOfABatchIsPlannedOnceNotAtEveryExecution() throws Exception {
        jdbc.execute("DROP TABLE IF EXISTS plan_probe_event");
        // without the store's defaults: its global index would draw on the store's own sequence and leave a gap that large in it
        jdbc.execute("CREATE TABLE plan_probe_event (LIKE domain_event_entry INCLUDING INDEXES)");
        jdbc.execute("INSERT INTO plan_probe_event (global_index, aggregate_identifier, sequence_number, event_identifier, payload, payload_type,"
                + " time_stamp) SELECT n, 'a' || (n / 4), n % 4, 'e' || n, '\\x00'::bytea, 'Probe', '2026-11-29T00:00:00Z'"
                + " FROM generate_series(1, 200000) n");
        jdbc.execute("ANALYZE plan_probe_event");
        EventSchema probe = EventSchema.builder().eventTable("plan_probe_event").globalIndexColumn("global_index")
                .timestampColumn("time_stamp").eventIdentifierColumn("event_identifier").aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number").typeColumn("type").payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision").payloadColumn("payload").metaDataColumn("meta_data").build();
        try (Connection connection = dataSource.getConnection()) {
            for (int read = 0; read < 12; read++) {
                // from the middle of the rows numbered 1 to 200,000
                try (PreparedStatement statement = SnapshotFreeStorageEngine.readWithoutGaps(connection, probe, 100_000 + read * BATCH, BATCH);
                        ResultSet rows = statement.executeQuery()) {
                    int count = 0;
                    while (rows.next()) {
                        count++;
                    }
                    assertThat(count).as("a full batch").isEqualTo(BATCH);
                }
            }
            try (PreparedStatement plans = connection.prepareStatement("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                    + " WHERE statement LIKE '%FROM plan_probe_event WHERE (global_index > $1 AND global_index <= $2)%'");
                    ResultSet row = plans.executeQuery()) {
                assertThat(row.next()).as("the read was prepared on the server").isTrue();
                assertThat(row.getLong("generic_plans")).as("executions on the one kept plan").isPositive();
            }
        } finally {
            jdbc.execute("DROP TABLE plan_probe_event");
        }
    }
}
