-- Agent API keys (bak_): scoped to one agent, at most 3 active per agent. Only the SHA-256 of a key is kept. An
-- active key holds one of its agent's three slots (unique while active), so one INSERT decides the limit, race-free.
CREATE TABLE agent_key (
    id         UUID        PRIMARY KEY,
    owner_id   UUID        NOT NULL,
    agent_id   UUID        NOT NULL,
    name       TEXT        NOT NULL,
    key_prefix TEXT        NOT NULL,
    key_hash   BYTEA       NOT NULL UNIQUE,
    slot       SMALLINT    NOT NULL CHECK (slot BETWEEN 1 AND 3),
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);

CREATE UNIQUE INDEX agent_key_active_slot ON agent_key (agent_id, slot) WHERE revoked_at IS NULL;
