-- The audit trail (docs/audit.md). audit_event chains every event of the store, in the order the chain's one
-- processor took them (the global order, but for an event that committed after a later index): link =
-- SHA-256(previous link || the event's stored record), the first link's previous being 32 zero bytes. Each row
-- also says whose the event is and of which resource, which is how the history API finds an owner's events.
CREATE TABLE audit_event (
    position      BIGINT PRIMARY KEY,
    global_index  BIGINT NOT NULL UNIQUE,
    link          BYTEA  NOT NULL,
    owner_id      UUID,
    resource_type TEXT,
    resource_id   TEXT
);
CREATE INDEX audit_event_owner ON audit_event (owner_id, position);
CREATE INDEX audit_event_resource ON audit_event (resource_id, position);

-- Checkpoints: the chain's head at a moment, signed (compact JWS, RS256) with the platform's signing key.
CREATE TABLE audit_checkpoint (
    position     BIGINT      PRIMARY KEY,
    global_index BIGINT      NOT NULL,
    link         BYTEA       NOT NULL,
    signed_at    TIMESTAMPTZ NOT NULL,
    jws          TEXT        NOT NULL
);
