-- Tasks: the snapshot (task_view) and the durable log behind the message reads and the task streams.
-- A log offset is the event's global index shifted left by 20 bits; streaming chunks take the offsets
-- after their turn's latest event (see TaskOffsets), so offsets grow strictly per task, in commit order.

CREATE TABLE task_view (
    id             UUID        PRIMARY KEY,
    owner_id       UUID        NOT NULL,
    agent_id       UUID        NOT NULL,
    instance_id    UUID        NOT NULL,
    context_id     TEXT        NOT NULL,
    origin         TEXT        NOT NULL,
    status         TEXT        NOT NULL,
    turn           INTEGER     NOT NULL,
    text           TEXT,
    error_code     TEXT,
    error_message  TEXT,
    deadline       TIMESTAMPTZ,
    last_offset    BIGINT      NOT NULL,
    change_offset  BIGINT      NOT NULL,
    pruned_through BIGINT,
    version        BIGINT      NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE INDEX task_view_inbox ON task_view (owner_id, change_offset);
CREATE INDEX task_view_agent ON task_view (owner_id, agent_id, change_offset);
CREATE INDEX task_view_queued ON task_view (instance_id) WHERE status = 'queued';
CREATE INDEX task_view_running ON task_view (updated_at) WHERE status = 'running';

-- One row per task event: the caller's and the agent's messages and every status transition.
CREATE TABLE task_message (
    task_id     UUID        NOT NULL,
    log_offset  BIGINT      NOT NULL,
    kind        TEXT        NOT NULL,
    turn        INTEGER     NOT NULL,
    role        TEXT,
    status      TEXT,
    text        TEXT,
    attachments JSONB,
    data        JSONB,
    occurred_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (task_id, log_offset)
);

-- Streaming chunks (agent_reply_delta, agent_thought_chunk, agent_message_chunk): high volume, kept
-- for a retention window. (task_id, turn, seq) makes a turn that runs again write each chunk once.
CREATE TABLE task_chunk (
    task_id    UUID        NOT NULL,
    log_offset BIGINT      NOT NULL,
    turn       INTEGER     NOT NULL,
    seq        INTEGER     NOT NULL,
    kind       TEXT        NOT NULL,
    text       TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (task_id, log_offset),
    UNIQUE (task_id, turn, seq)
);

CREATE INDEX task_chunk_age ON task_chunk (created_at);

-- Files: owner-scoped objects of the object store; sha256 and size are recorded once the upload is confirmed.
CREATE TABLE file_object (
    id                UUID        PRIMARY KEY,
    owner_id          UUID        NOT NULL,
    store             TEXT        NOT NULL,
    object_key        TEXT        NOT NULL,
    content_type      TEXT        NOT NULL,
    declared_bytes    BIGINT      NOT NULL,
    filename          TEXT,
    status            TEXT        NOT NULL,
    size_bytes        BIGINT,
    sha256            TEXT,
    upload_expires_at TIMESTAMPTZ NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    confirmed_at      TIMESTAMPTZ
);

CREATE INDEX file_object_owner ON file_object (owner_id, created_at DESC);
CREATE INDEX file_object_pending ON file_object (upload_expires_at) WHERE status = 'pending';

-- The local runtime's turns: a turn is recorded before it runs, so a crash is recovered by running it
-- again (its chunks are written once), and its outcome is recorded before it is reported.
CREATE TABLE local_task_turn (
    task_id       UUID        NOT NULL,
    turn          INTEGER     NOT NULL,
    instance_id   UUID        NOT NULL,
    agent_id      UUID        NOT NULL,
    owner_id      UUID        NOT NULL,
    context_id    TEXT        NOT NULL,
    runtime_epoch BIGINT      NOT NULL,
    input         JSONB       NOT NULL,
    state         TEXT        NOT NULL,
    outcome       JSONB,
    claimed_by    TEXT,
    heartbeat_at  TIMESTAMPTZ NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (task_id, turn)
);

CREATE INDEX local_task_turn_live ON local_task_turn (heartbeat_at) WHERE state IN ('running', 'finished');

ALTER TABLE local_cron_run ADD COLUMN task_id UUID;
