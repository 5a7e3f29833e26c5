package org.agentplatform.infra.replay;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentplatform.kernel.FrameworkReplacement;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.query.replay.StoredEvents;
import org.axonframework.eventhandling.EventUtils;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.upcasting.event.NoOpEventUpcaster;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/** The event store read with JDBC and deserialized with the service's event serializer, as Axon's storage engine would. */
@FrameworkReplacement("Axon: JdbcEventStorageEngine's reading and upcasting of domain_event_entry")
public final class JdbcStoredEvents implements StoredEvents {

    private static final String SELECT = "SELECT " + StoredEvent.COLUMNS + " FROM domain_event_entry";

    private final JdbcTemplate jdbc;
    private final Serializer serializer;

    public JdbcStoredEvents(JdbcTemplate jdbc, Serializer serializer) {
        this.jdbc = jdbc;
        this.serializer = serializer;
    }

    @Override
    public List<TrackedEventMessage<?>> ofAggregate(String aggregateIdentifier, Instant until) {
        List<TrackedDomainEventData<byte[]>> rows = jdbc.query(SELECT + " WHERE aggregate_identifier = ? ORDER BY sequence_number",
                ROW, aggregateIdentifier);
        return deserialize(rows.stream().filter(row -> !row.getTimestamp().isAfter(until)));
    }

    @Override
    public List<TrackedEventMessage<?>> after(long globalIndex, int limit) {
        return deserialize(jdbc.query(SELECT + " WHERE global_index > ? ORDER BY global_index LIMIT ?", ROW, globalIndex, limit).stream());
    }

    @Override
    public long head() {
        Long head = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        return head == null ? 0 : head;
    }

    private List<TrackedEventMessage<?>> deserialize(Stream<TrackedDomainEventData<byte[]>> rows) {
        return EventUtils.upcastAndDeserializeTrackedEvents(rows, serializer, NoOpEventUpcaster.INSTANCE)
                .<TrackedEventMessage<?>>map(event -> EventUtils.asTrackedEventMessage(event.andMetaData(Map.of(GlobalIndex.KEY,
                        event.trackingToken().position().orElseThrow())), event.trackingToken()))
                .toList();
    }

    private static final RowMapper<TrackedDomainEventData<byte[]>> ROW = (row, n) -> new TrackedDomainEventData<>(
            new GlobalSequenceTrackingToken(row.getLong("global_index")),
            new GenericDomainEventEntry<>(row.getString("type"), row.getString("aggregate_identifier"), row.getLong("sequence_number"),
                    row.getString("event_identifier"), row.getString("time_stamp"), row.getString("payload_type"),
                    row.getString("payload_revision"), row.getBytes("payload"), row.getBytes("meta_data")));
}
