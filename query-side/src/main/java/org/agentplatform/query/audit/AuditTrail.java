package org.agentplatform.query.audit;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.List;
import org.agentplatform.kernel.identity.OwnerId;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An owner's events as the audit chain indexed them ({@code audit_event} joined to the event store): by resource,
 * after a chain position, or within a time range for export, each with its stored bytes and its link.
 */
public final class AuditTrail {

    private static final String SELECT = "SELECT a.position, a.global_index, a.resource_type, a.resource_id, a.link,"
            + " p.link AS previous_link, e.event_identifier, e.aggregate_identifier, e.sequence_number, e.type, e.time_stamp,"
            + " e.payload_type, e.payload_revision, e.payload, e.meta_data"
            + " FROM audit_event a JOIN domain_event_entry e ON e.global_index = a.global_index"
            + " LEFT JOIN audit_event p ON p.position = a.position - 1";
    private static final int EXPORT_PAGE = 500;

    private final DatabaseClient database;

    public AuditTrail(DatabaseClient database) {
        this.database = database;
    }

    /** One chained event, as stored. */
    public record Entry(long position, long globalIndex, String resourceType, String resourceId, byte[] link, byte[] previousLink,
            String eventIdentifier, String aggregateIdentifier, long sequenceNumber, String aggregateType, String timeStamp,
            String payloadType, String payloadRevision, byte[] payload, byte[] metaData) {
    }

    /** The owner's events after chain position {@code since}, of one resource type and id when given, oldest first. */
    public Flux<Entry> history(OwnerId owner, String resourceType, String resourceId, long since, int limit) {
        StringBuilder sql = new StringBuilder(SELECT).append(" WHERE a.owner_id = :owner AND a.position > :since");
        if (resourceType != null) {
            sql.append(" AND a.resource_type = :type");
        }
        if (resourceId != null) {
            sql.append(" AND a.resource_id = :id");
        }
        sql.append(" ORDER BY a.position LIMIT :limit");
        DatabaseClient.GenericExecuteSpec query = database.sql(sql.toString())
                .bind("owner", owner.value())
                .bind("since", since)
                .bind("limit", limit);
        if (resourceType != null) {
            query = query.bind("type", resourceType);
        }
        if (resourceId != null) {
            query = query.bind("id", resourceId);
        }
        return query.map(AuditTrail::entry).all();
    }

    /** A signed head of the chain. */
    public record Checkpoint(long position, long globalIndex, byte[] link, Instant signedAt, String jws) {
    }

    /** The newest checkpoints first. */
    public Flux<Checkpoint> checkpoints(int limit) {
        return database.sql("SELECT position, global_index, link, signed_at, jws FROM audit_checkpoint ORDER BY position DESC LIMIT :limit")
                .bind("limit", limit)
                .map(row -> new Checkpoint(row.get("position", Long.class), row.get("global_index", Long.class), row.get("link", byte[].class),
                        row.get("signed_at", Instant.class), row.get("jws", String.class)))
                .all();
    }

    /** Whether the chain holds any event of this resource for this owner. */
    public Mono<Boolean> owns(OwnerId owner, String resourceType, String resourceId) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM audit_event WHERE resource_id = :id AND owner_id = :owner"
                        + " AND resource_type = :type) AS found")
                .bind("id", resourceId)
                .bind("owner", owner.value())
                .bind("type", resourceType)
                .map(row -> Boolean.TRUE.equals(row.get("found", Boolean.class)))
                .one();
    }

    /** All the owner's events that occurred in [{@code since}, {@code until}), in chain order, read a page at a time. */
    public Flux<Entry> export(OwnerId owner, Instant since, Instant until) {
        return page(owner, since, until, 0).expand(page -> page.size() < EXPORT_PAGE ? Mono.empty()
                        : page(owner, since, until, page.getLast().position()))
                .flatMapIterable(page -> page);
    }

    private Mono<List<Entry>> page(OwnerId owner, Instant since, Instant until, long after) {
        StringBuilder sql = new StringBuilder(SELECT).append(" WHERE a.owner_id = :owner AND a.position > :after");
        if (since != null) {
            sql.append(" AND e.time_stamp::timestamptz >= :since");
        }
        if (until != null) {
            sql.append(" AND e.time_stamp::timestamptz < :until");
        }
        sql.append(" ORDER BY a.position LIMIT ").append(EXPORT_PAGE);
        DatabaseClient.GenericExecuteSpec query = database.sql(sql.toString()).bind("owner", owner.value()).bind("after", after);
        if (since != null) {
            query = query.bind("since", since);
        }
        if (until != null) {
            query = query.bind("until", until);
        }
        return query.map(AuditTrail::entry).all().collectList();
    }

    private static Entry entry(Readable row) {
        return new Entry(
                row.get("position", Long.class),
                row.get("global_index", Long.class),
                row.get("resource_type", String.class),
                row.get("resource_id", String.class),
                row.get("link", byte[].class),
                row.get("previous_link", byte[].class),
                row.get("event_identifier", String.class),
                row.get("aggregate_identifier", String.class),
                row.get("sequence_number", Long.class),
                row.get("type", String.class),
                row.get("time_stamp", String.class),
                row.get("payload_type", String.class),
                row.get("payload_revision", String.class),
                row.get("payload", byte[].class),
                row.get("meta_data", byte[].class));
    }
}
