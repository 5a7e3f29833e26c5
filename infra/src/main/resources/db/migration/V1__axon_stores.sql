-- Axon Framework's JDBC stores on PostgreSQL (bytea payloads; Axon's default table and column names).

-- The event store: append-only, the source of truth. (aggregate_identifier, sequence_number) is unique,
-- which is what makes concurrent appends to one aggregate fail with a ConcurrencyException.
CREATE TABLE domain_event_entry (
    global_index         BIGSERIAL    NOT NULL,
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255),
    event_identifier     VARCHAR(255) NOT NULL,
    meta_data            BYTEA,
    payload              BYTEA        NOT NULL,
    payload_revision     VARCHAR(255),
    payload_type         VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    PRIMARY KEY (global_index),
    UNIQUE (aggregate_identifier, sequence_number),
    UNIQUE (event_identifier)
);

CREATE TABLE snapshot_event_entry (
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL,
    meta_data            BYTEA,
    payload              BYTEA        NOT NULL,
    payload_revision     VARCHAR(255),
    payload_type         VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    PRIMARY KEY (aggregate_identifier, sequence_number),
    UNIQUE (event_identifier)
);

-- Tracking tokens of the streaming processors; a projection's rows commit with its token.
CREATE TABLE token_entry (
    processor_name VARCHAR(255) NOT NULL,
    segment        INTEGER      NOT NULL,
    token          BYTEA,
    token_type     VARCHAR(255),
    timestamp      VARCHAR(255),
    owner          VARCHAR(255),
    PRIMARY KEY (processor_name, segment)
);

-- Sagas (PostgresSagaSqlSchema, loaded FOR UPDATE).
CREATE TABLE saga_entry (
    saga_id         VARCHAR(255) NOT NULL,
    revision        VARCHAR(255),
    saga_type       VARCHAR(255),
    serialized_saga BYTEA,
    PRIMARY KEY (saga_id)
);

CREATE TABLE association_value_entry (
    id                BIGSERIAL    NOT NULL,
    association_key   VARCHAR(255),
    association_value VARCHAR(255),
    saga_id           VARCHAR(255),
    saga_type         VARCHAR(255),
    PRIMARY KEY (id)
);

CREATE INDEX association_value_entry_lookup ON association_value_entry (saga_type, association_key, association_value);
CREATE INDEX association_value_entry_saga ON association_value_entry (saga_id, saga_type);
