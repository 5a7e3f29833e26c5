-- Axon's sequenced dead-letter queue (JdbcSequencedDeadLetterQueue), one per event processor: an event whose
-- handler failed is parked here with every later event of its sequence (its aggregate), while the processor goes
-- on with the others. Axon's columns, in snake_case like domain_event_entry; timestamps are ISO-8601 text as
-- Axon writes them.
CREATE TABLE dead_letter_entry (
    dead_letter_id      VARCHAR(255)  NOT NULL,
    processing_group    VARCHAR(255)  NOT NULL,
    sequence_identifier VARCHAR(255)  NOT NULL,
    sequence_index      BIGINT        NOT NULL,
    message_type        VARCHAR(255)  NOT NULL,
    event_identifier    VARCHAR(255)  NOT NULL,
    time_stamp          VARCHAR(255)  NOT NULL,
    payload_type        VARCHAR(255)  NOT NULL,
    payload_revision    VARCHAR(255),
    payload             BYTEA         NOT NULL,
    meta_data           BYTEA,
    type                VARCHAR(255),
    aggregate_identifier VARCHAR(255),
    sequence_number     BIGINT,
    token_type          VARCHAR(255),
    token               BYTEA,
    enqueued_at         VARCHAR(255)  NOT NULL,
    last_touched        VARCHAR(255),
    processing_started  VARCHAR(255),
    cause_type          VARCHAR(255),
    cause_message       VARCHAR(1023),
    diagnostics         BYTEA,
    PRIMARY KEY (dead_letter_id),
    UNIQUE (processing_group, sequence_identifier, sequence_index)
);

CREATE INDEX dead_letter_entry_sequence ON dead_letter_entry (processing_group, sequence_identifier);

-- Retries asked for from the command line (deadletters retry); the service applies them and records the outcome.
CREATE TABLE dead_letter_retry (
    id               BIGSERIAL    PRIMARY KEY,
    processing_group VARCHAR(255),
    requested_at     TIMESTAMPTZ  NOT NULL DEFAULT now(),
    finished_at      TIMESTAMPTZ,
    retried          INTEGER,
    still_parked     INTEGER
);
