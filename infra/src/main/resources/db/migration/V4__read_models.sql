-- Read models: written by projections (JDBC, in the same transaction as their tracking token),
-- read by the API (R2DBC). A replay rebuilds them from the event store.

CREATE TABLE instance_view (
    id             UUID        PRIMARY KEY,
    owner_id       UUID        NOT NULL,
    name           TEXT        NOT NULL,
    provider_id    TEXT        NOT NULL,
    region_id      TEXT        NOT NULL,
    kind           TEXT        NOT NULL,
    status         TEXT        NOT NULL,
    runtime_epoch  BIGINT      NOT NULL DEFAULT 0,
    failure_reason TEXT,
    version        BIGINT      NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE INDEX instance_view_owner ON instance_view (owner_id, created_at DESC);

CREATE TABLE agent_view (
    id          UUID        PRIMARY KEY,
    owner_id    UUID        NOT NULL,
    instance_id UUID        NOT NULL,
    name        TEXT,
    model       TEXT,
    template_id TEXT,
    visibility  TEXT        NOT NULL,
    mcp_enabled BOOLEAN     NOT NULL,
    deleted     BOOLEAN     NOT NULL DEFAULT FALSE,
    version     BIGINT      NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX agent_view_owner ON agent_view (owner_id, created_at DESC) WHERE NOT deleted;
CREATE INDEX agent_view_public ON agent_view (created_at DESC) WHERE visibility = 'public' AND NOT deleted;

CREATE TABLE agent_skill_view (
    agent_id   UUID        NOT NULL REFERENCES agent_view (id),
    name       TEXT        NOT NULL,
    version    TEXT,
    enabled    BOOLEAN     NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (agent_id, name)
);

-- The operation snapshot, as of its last event (sequence).
CREATE TABLE operation_view (
    id             UUID        PRIMARY KEY,
    instance_id    UUID        NOT NULL,
    owner_id       UUID        NOT NULL,
    method         TEXT        NOT NULL,
    status         TEXT        NOT NULL,
    sequence       BIGINT      NOT NULL,
    params         JSONB       NOT NULL,
    resource_key   TEXT,
    request_digest TEXT,
    request_id     TEXT,
    deadline       TIMESTAMPTZ NOT NULL,
    runtime_epoch  BIGINT,
    cancel_request JSONB,
    projection     JSONB       NOT NULL,
    result         JSONB,
    error          JSONB,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE INDEX operation_view_queued ON operation_view (instance_id, created_at) WHERE status = 'queued';
CREATE INDEX operation_view_projection_pending ON operation_view (updated_at) WHERE status = 'projection_pending';
CREATE INDEX operation_view_resource ON operation_view (owner_id, resource_key, created_at DESC) WHERE resource_key IS NOT NULL;

-- The durable, resumable operation event stream: one row per event, id = the aggregate sequence.
CREATE TABLE operation_event (
    operation_id UUID        NOT NULL,
    sequence     BIGINT      NOT NULL,
    type         TEXT        NOT NULL,
    status       TEXT        NOT NULL,
    data         JSONB       NOT NULL,
    occurred_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (operation_id, sequence)
);
