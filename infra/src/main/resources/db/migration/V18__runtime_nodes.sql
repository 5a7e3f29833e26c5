-- The local runtime's liveness is its node's, not each turn's: a node renews its own row at every sweep, and a
-- running turn is taken over once it was claimed longer ago than the takeover delay and its node's row is as old
-- (or gone). local_turn.heartbeat_at now says when the turn was claimed, so a queued or long turn costs no write
-- per sweep.
CREATE TABLE local_runtime_node (
    node         TEXT        PRIMARY KEY,
    heartbeat_at TIMESTAMPTZ NOT NULL
);

ALTER TABLE local_turn RENAME COLUMN heartbeat_at TO claimed_at;
ALTER INDEX local_turn_live RENAME TO local_turn_claimed;
