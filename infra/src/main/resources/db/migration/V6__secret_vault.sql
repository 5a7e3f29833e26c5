-- Secrets (webhook signing secrets, tokens, secret runtime parameters): mutable, encrypted with
-- AES-256-GCM, referenced from events and rows as "secret:<id>", never stored in the event store.
CREATE TABLE secret (
    id         UUID        PRIMARY KEY,
    owner_id   UUID        NOT NULL,
    purpose    TEXT        NOT NULL,
    nonce      BYTEA       NOT NULL,
    ciphertext BYTEA       NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
