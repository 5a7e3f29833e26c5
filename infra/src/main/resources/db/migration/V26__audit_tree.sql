-- The audit log as RFC 9162's Merkle tree (docs/audit.md, "The tree"): the chain's events are its leaves in chain
-- order (leaf index = position - 1, leaf hash = SHA-256(0x00 || record(event))). audit_tree_node holds the hash of
-- every complete perfect subtree: at level 0 the leaves, at level L the node over leaves
-- [node_index * 2^L, (node_index + 1) * 2^L). A root, an inclusion proof or a consistency proof reads O(log n) rows.
CREATE TABLE audit_tree_node (
    level      SMALLINT NOT NULL,
    node_index BIGINT   NOT NULL,
    hash       BYTEA    NOT NULL,
    PRIMARY KEY (level, node_index)
);

-- A checkpoint is also a signed tree head: the root of the tree of its position's events (null for checkpoints
-- signed before the tree existed).
ALTER TABLE audit_checkpoint ADD COLUMN root_hash BYTEA;
