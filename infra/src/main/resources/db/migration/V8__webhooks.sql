-- Webhooks and the audit of their deliveries (read models, written by WebhookProjection).
CREATE TABLE webhook_view (
    id         UUID        PRIMARY KEY,
    task_id    UUID        NOT NULL,
    owner_id   UUID        NOT NULL,
    url        TEXT        NOT NULL,
    has_secret BOOLEAN     NOT NULL,
    has_token  BOOLEAN     NOT NULL,
    removed    BOOLEAN     NOT NULL DEFAULT FALSE,
    version    BIGINT      NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX webhook_view_task ON webhook_view (task_id, created_at);

-- One row per delivery; payload and the fixed signature of a redelivery are kept for the dispatcher's
-- recovery, never returned by the API.
CREATE TABLE delivery_view (
    id                   UUID        PRIMARY KEY,
    webhook_id           UUID        NOT NULL,
    task_id              UUID        NOT NULL,
    owner_id             UUID        NOT NULL,
    renderer             TEXT        NOT NULL,
    status               TEXT        NOT NULL,
    attempt_num          INTEGER     NOT NULL,
    last_response_status INTEGER     NOT NULL,
    last_error           TEXT        NOT NULL,
    next_attempt_at      TIMESTAMPTZ,
    last_attempted_at    TIMESTAMPTZ,
    completed_at         TIMESTAMPTZ,
    duration_ms          BIGINT,
    response_snippet     TEXT,
    redelivery_of        UUID,
    payload              TEXT        NOT NULL,
    fixed_signature      TEXT,
    version              BIGINT      NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);

CREATE INDEX delivery_view_webhook ON delivery_view (webhook_id, created_at DESC);
CREATE INDEX delivery_view_pending ON delivery_view (updated_at) WHERE status = 'pending';
CREATE INDEX delivery_view_due ON delivery_view (next_attempt_at) WHERE status = 'failed';

-- The fan-out's own state, written in its processor's transaction (WebhookFanOut): the webhooks each
-- task has now, and which task events were fanned out to which webhook.
CREATE TABLE webhook_subscription (
    webhook_id UUID        PRIMARY KEY,
    task_id    UUID        NOT NULL,
    owner_id   UUID        NOT NULL,
    url        TEXT        NOT NULL,
    secret_ref TEXT,
    token_ref  TEXT,
    active     BOOLEAN     NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX webhook_subscription_task ON webhook_subscription (task_id) WHERE active;

CREATE TABLE webhook_fanout (
    event_id   TEXT NOT NULL,
    webhook_id UUID NOT NULL,
    PRIMARY KEY (event_id, webhook_id)
);
