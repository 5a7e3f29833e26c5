-- Terminals as the terminal projection keeps them (the Terminal aggregate's events are the truth). status is
-- open or ended; attached says whether a connection is attached now; version is the aggregate's last sequence.
CREATE TABLE terminal_view (
    id              UUID        PRIMARY KEY,
    owner_id        UUID        NOT NULL,
    instance_id     UUID        NOT NULL,
    agent_id        UUID,
    conversation_id UUID,
    status          TEXT        NOT NULL,
    attached        BOOLEAN     NOT NULL,
    attachments     INTEGER     NOT NULL,
    end_reason      TEXT,
    exit_status     INTEGER,
    version         BIGINT      NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    ended_at        TIMESTAMPTZ
);

CREATE INDEX terminal_view_instance ON terminal_view (instance_id, created_at DESC);
CREATE INDEX terminal_view_open ON terminal_view (instance_id) WHERE status = 'open';
