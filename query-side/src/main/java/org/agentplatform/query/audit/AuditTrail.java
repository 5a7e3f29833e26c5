package org.agentplatform.query.audit;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.agentplatform.kernel.audit.MerkleTree;
import org.agentplatform.kernel.audit.MerkleTree.Node;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.OwnerContentErased;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An owner's events as the audit chain indexed them ({@code audit_event} joined to the event store): by resource,
 * after a chain position, or within a time range for export, each with its stored bytes and its link; and the log's
 * Merkle tree ({@code audit_tree_node}): signed tree heads, inclusion and consistency proofs, each from O(log n) rows.
 */
public final class AuditTrail {

    /** How far before the chain's last event an unchained owner event is looked for ({@link #awaitsOwnerChaining}). */
    static final int OWNER_LOOKBACK = 1_000;

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

    /** A signed tree head: the tree of {@code treeSize} events has root {@code rootHash}, signed in {@code jws} at {@code signedAt}. */
    public record TreeHead(long treeSize, long globalIndex, byte[] rootHash, Instant signedAt, String jws) {
    }

    /** The signed tree heads of sizes below {@code before} (all when null), largest first. */
    public Flux<TreeHead> treeHeads(@Nullable Long before, int limit) {
        return database.sql("SELECT position, global_index, root_hash, signed_at, jws FROM audit_checkpoint WHERE root_hash IS NOT NULL"
                        + " AND position < :before ORDER BY position DESC LIMIT :limit")
                .bind("before", before == null ? Long.MAX_VALUE : before)
                .bind("limit", limit)
                .map(row -> new TreeHead(row.get("position", Long.class), row.get("global_index", Long.class),
                        row.get("root_hash", byte[].class), row.get("signed_at", Instant.class), row.get("jws", String.class)))
                .all();
    }

    /** How many events the Merkle tree holds now (its leaves). */
    public Mono<Long> treeSize() {
        return database.sql("SELECT COALESCE(max(node_index) + 1, 0) AS size FROM audit_tree_node WHERE level = 0")
                .map(row -> row.get("size", Long.class))
                .one();
    }

    /** The leaf index (chain position - 1) of the owner's event at {@code globalIndex}; empty for another owner's or an unchained one. */
    public Mono<Long> leafOf(OwnerId owner, long globalIndex) {
        return database.sql("SELECT position - 1 AS leaf FROM audit_event WHERE global_index = :index AND owner_id = :owner")
                .bind("index", globalIndex)
                .bind("owner", owner.value())
                .map(row -> row.get("leaf", Long.class))
                .one();
    }

    /** A leaf's hash and its audit path in the tree of {@code size} events (RFC 9162 2.1.3), bottom up. */
    public record InclusionProof(byte[] leafHash, List<byte[]> auditPath) {
    }

    public Mono<InclusionProof> inclusionProof(long leaf, long size) {
        Node leafNode = new Node(0, leaf);
        Set<Node> wanted = new LinkedHashSet<>(MerkleTree.nodesRead(nodes -> MerkleTree.inclusionProof(leaf, size, nodes)));
        wanted.add(leafNode);
        return nodes(wanted).map(nodes -> new InclusionProof(nodes.apply(leafNode), MerkleTree.inclusionProof(leaf, size, nodes)));
    }

    /** What proves the tree of {@code first} events a prefix of that of {@code second} (RFC 9162 2.1.4). */
    public Mono<List<byte[]>> consistencyProof(long first, long second) {
        return nodes(MerkleTree.nodesRead(nodes -> MerkleTree.consistencyProof(first, second, nodes)))
                .map(nodes -> MerkleTree.consistencyProof(first, second, nodes));
    }

    private Mono<Function<Node, byte[]>> nodes(Collection<Node> wanted) {
        if (wanted.isEmpty()) {
            return Mono.just(MerkleTree.lookup(Map.of()));
        }
        return database.sql("SELECT level, node_index, hash FROM audit_tree_node WHERE (level, node_index) IN"
                        + " (SELECT * FROM unnest(:levels::smallint[], :indexes::bigint[]))")
                .bind("levels", wanted.stream().map(Node::level).toArray(Integer[]::new))
                .bind("indexes", wanted.stream().map(Node::index).toArray(Long[]::new))
                .map(row -> Map.entry(new Node(row.get("level", Short.class), row.get("node_index", Long.class)), row.get("hash", byte[].class)))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue)
                .map(MerkleTree::lookup);
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

    /**
     * Whether the event store holds an event of this aggregate that the chain has not taken up yet (the chain's one
     * processor runs a moment behind the store): its history is about to exist.
     */
    public Mono<Boolean> awaitsChaining(String resourceId) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM domain_event_entry e WHERE e.aggregate_identifier = :id"
                        + " AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.global_index = e.global_index)) AS pending")
                .bind("id", resourceId)
                .map(row -> Boolean.TRUE.equals(row.get("pending", Boolean.class)))
                .one();
    }

    /**
     * Whether the store holds an erasure of an owner's content ({@code OwnerContentErased}, the event an owner's own history
     * is made of) that the chain has not taken up yet. Such an event belongs to no aggregate, so it is looked for among the
     * store's newest events: those past the last {@value #OWNER_LOOKBACK} the chain has taken up (an event that committed
     * after a later one is chained after it).
     */
    public Mono<Boolean> awaitsOwnerChaining() {
        return database.sql("SELECT EXISTS (SELECT 1 FROM domain_event_entry e WHERE e.global_index > (SELECT coalesce(max(global_index),"
                        + " -1) - " + OWNER_LOOKBACK + " FROM audit_event) AND e.payload_type = :type"
                        + " AND NOT EXISTS (SELECT 1 FROM audit_event a WHERE a.global_index = e.global_index)) AS pending")
                .bind("type", OwnerContentErased.class.getName())
                .map(row -> Boolean.TRUE.equals(row.get("pending", Boolean.class)))
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
