-- State of the built-in `local` provider's runtimes (the harness side, not the platform's view).

CREATE TABLE local_instance (
    instance_id   UUID        PRIMARY KEY,
    owner_id      UUID        NOT NULL,
    kind          TEXT        NOT NULL,
    state         TEXT        NOT NULL,
    runtime_epoch BIGINT      NOT NULL DEFAULT 0,
    faults        JSONB       NOT NULL DEFAULT '[]',
    updated_at    TIMESTAMPTZ NOT NULL
);

-- Every call's outcome, so a repeated call of the same operation is answered, never applied twice.
CREATE TABLE local_applied_operation (
    operation_id UUID        PRIMARY KEY,
    instance_id  UUID        NOT NULL,
    outcome      JSONB       NOT NULL,
    applied_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE local_agent (
    instance_id  UUID        NOT NULL,
    agent_id     UUID        NOT NULL,
    name         TEXT        NOT NULL,
    model        TEXT        NOT NULL,
    instructions TEXT,
    template_id  TEXT,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (instance_id, agent_id)
);

CREATE TABLE local_skill (
    instance_id  UUID        NOT NULL,
    agent_id     UUID        NOT NULL,
    name         TEXT        NOT NULL,
    version      TEXT        NOT NULL,
    enabled      BOOLEAN     NOT NULL,
    installed_at TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (instance_id, agent_id, name)
);

CREATE TABLE local_skill_file (
    instance_id UUID  NOT NULL,
    agent_id    UUID  NOT NULL,
    skill       TEXT  NOT NULL,
    path        TEXT  NOT NULL,
    content     BYTEA NOT NULL,
    sha256      TEXT  NOT NULL,
    PRIMARY KEY (instance_id, agent_id, skill, path)
);

CREATE TABLE local_cron (
    cron_id     UUID        PRIMARY KEY,
    instance_id UUID        NOT NULL,
    agent_id    UUID        NOT NULL,
    name        TEXT        NOT NULL,
    schedule    TEXT        NOT NULL,
    prompt      TEXT        NOT NULL,
    enabled     BOOLEAN     NOT NULL,
    next_run_at TIMESTAMPTZ,
    last_run_at TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX local_cron_due ON local_cron (next_run_at) WHERE enabled;

CREATE TABLE local_cron_run (
    run_id      UUID        PRIMARY KEY,
    cron_id     UUID        NOT NULL,
    instance_id UUID        NOT NULL,
    trigger     TEXT        NOT NULL,
    status      TEXT        NOT NULL,
    output      TEXT,
    error       TEXT,
    started_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ
);

CREATE INDEX local_cron_run_by_cron ON local_cron_run (cron_id, started_at DESC);

-- MCP servers; secret values (env, headers) are vault references, never the secrets.
CREATE TABLE local_mcp_server (
    instance_id UUID        NOT NULL,
    name        TEXT        NOT NULL,
    agent_id    UUID,
    transport   TEXT        NOT NULL,
    target      TEXT        NOT NULL,
    args        JSONB       NOT NULL DEFAULT '[]',
    env         JSONB       NOT NULL DEFAULT '{}',
    headers     JSONB       NOT NULL DEFAULT '{}',
    prepared    BOOLEAN     NOT NULL DEFAULT FALSE,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (instance_id, name)
);

CREATE TABLE local_session (
    instance_id  UUID        NOT NULL,
    agent_id     UUID        NOT NULL,
    session_id   TEXT        NOT NULL,
    mode         TEXT        NOT NULL DEFAULT 'default',
    model        TEXT,
    cleared_at   TIMESTAMPTZ,
    cancelled_at TIMESTAMPTZ,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (instance_id, agent_id, session_id)
);
