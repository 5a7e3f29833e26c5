package org.agentplatform.infra.audit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.agentplatform.infra.replay.StoredEvent;
import org.agentplatform.kernel.audit.MerkleTree;
import org.agentplatform.kernel.audit.MerkleTree.Node;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The audit chain's events as RFC 9162's Merkle tree ({@code audit_tree_node}, docs/audit.md): appending a leaf writes
 * it and every perfect subtree it completes (two rows per event on average, whatever the log's size), from the hashes
 * of the tree's right edge (at most one per level). A store chained before the tree existed has its leaves added
 * from its events, in chain order, before the next append.
 */
public final class AuditTree {

    private static final int CATCH_UP_PAGE = 10_000;

    private final JdbcTemplate jdbc;

    public AuditTree(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Appends the leaves of the events at positions {@code size + 1 ...} to the tree of {@code size} events. */
    public void append(long size, List<byte[]> leafHashes) {
        if (leafHashes.isEmpty()) {
            return;
        }
        Map<Integer, byte[]> edge = rightEdge(size);
        if (edge == null) {
            catchUp(size);
            edge = rightEdge(size);
        }
        List<Object[]> rows = new ArrayList<>(leafHashes.size() * 2);
        long next = size;
        for (byte[] leaf : leafHashes) {
            next = add(next, leaf, edge, rows);
        }
        insert(rows);
    }

    /** The root of the tree of the first {@code size} events. */
    public byte[] root(long size) {
        return MerkleTree.root(size, nodes(MerkleTree.nodesRead(nodes -> MerkleTree.root(size, nodes))));
    }

    /** The stored hashes of {@code wanted}, as a lookup that fails on one the tree lacks. */
    public Function<Node, byte[]> nodes(Collection<Node> wanted) {
        return MerkleTree.lookup(stored(wanted));
    }

    /** The stored hashes of those of {@code wanted} the tree holds. */
    Map<Node, byte[]> stored(Collection<Node> wanted) {
        Map<Node, byte[]> found = new HashMap<>();
        if (!wanted.isEmpty()) {
            jdbc.query("SELECT level, node_index, hash FROM audit_tree_node WHERE (level, node_index) IN"
                    + " (SELECT * FROM unnest(?::smallint[], ?::bigint[]))", row -> {
                        found.put(new Node(row.getInt("level"), row.getLong("node_index")), row.getBytes("hash"));
                    }, wanted.stream().map(Node::level).toArray(Integer[]::new),
                    wanted.stream().map(Node::index).toArray(Long[]::new));
        }
        return found;
    }

    /**
     * The leaf's hash and the perfect subtrees it completes as rows ({@code level, node_index, hash}); {@code edge} (the
     * right edge by level) becomes that of the tree one larger. Answers the new size.
     */
    static long add(long size, byte[] leafHash, Map<Integer, byte[]> edge, List<Object[]> rows) {
        long index = size;
        int level = 0;
        byte[] hash = leafHash;
        rows.add(new Object[] {(short) 0, index, hash});
        while ((index & 1) == 1) {
            hash = MerkleTree.nodeHash(edge.remove(level), hash);
            level++;
            index >>= 1;
            rows.add(new Object[] {(short) level, index, hash});
        }
        edge.put(level, hash);
        return size + 1;
    }

    /** The right edge of the tree of {@code size} leaves by level; null when the tree lacks one of them (not caught up). */
    private Map<Integer, byte[]> rightEdge(long size) {
        List<Node> wanted = size == 0 ? List.of() : MerkleTree.rightEdge(size);
        Function<Node, byte[]> stored = nodes(wanted);
        Map<Integer, byte[]> edge = new HashMap<>();
        try {
            for (Node node : wanted) {
                edge.put(node.level(), stored.apply(node));
            }
        } catch (IllegalStateException notCaughtUp) {
            return null;
        }
        return edge;
    }

    /** Adds the leaves of the chain's events up to position {@code size} that the tree does not hold yet. */
    private void catchUp(long size) {
        Long held = jdbc.queryForObject("SELECT max(node_index) + 1 FROM audit_tree_node WHERE level = 0", Long.class);
        long next = held == null ? 0 : held;
        Map<Integer, byte[]> edge = rightEdge(next);
        if (edge == null) {
            throw new IllegalStateException("The audit tree of " + next + " leaves lacks a node of its right edge");
        }
        while (next < size) {
            long from = next;
            List<Object[]> leaves = jdbc.query("SELECT a.position, e.* FROM audit_event a JOIN domain_event_entry e"
                            + " ON e.global_index = a.global_index WHERE a.position > ? AND a.position <= ? ORDER BY a.position",
                    (row, n) -> new Object[] {row.getLong("position"), MerkleTree.leafHash(StoredEvent.of(row).record())},
                    from, Math.min(size, from + CATCH_UP_PAGE));
            List<Object[]> rows = new ArrayList<>(leaves.size() * 2);
            for (Object[] leaf : leaves) {
                if ((long) leaf[0] != next + 1) {
                    break;
                }
                next = add(next, (byte[]) leaf[1], edge, rows);
            }
            if (next == from) {
                throw new IllegalStateException("The audit chain has no event at position " + (next + 1) + " to add to its tree");
            }
            insert(rows);
        }
    }

    private void insert(List<Object[]> rows) {
        jdbc.batchUpdate("INSERT INTO audit_tree_node (level, node_index, hash) VALUES (?, ?, ?)", rows);
    }
}
