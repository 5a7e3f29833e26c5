-- The built-in identity: mutable credential state, deliberately outside the (immutable) event store.

CREATE TABLE owner (
    id         UUID        PRIMARY KEY,
    name       TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- The first owner, created with the first API key on first start.
CREATE TABLE bootstrap (
    singleton    BOOLEAN     PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    owner_id     UUID        NOT NULL REFERENCES owner (id),
    completed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE app_user (
    id            UUID        PRIMARY KEY,
    owner_id      UUID        NOT NULL REFERENCES owner (id),
    email         TEXT        NOT NULL,
    password_hash TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL
);

CREATE UNIQUE INDEX app_user_email ON app_user (lower(email));

-- User API keys: only the SHA-256 of the key and its first 12 characters are kept.
CREATE TABLE api_key (
    id                    UUID        PRIMARY KEY,
    owner_id              UUID        NOT NULL REFERENCES owner (id),
    name                  TEXT        NOT NULL,
    key_prefix            TEXT        NOT NULL CHECK (length(key_prefix) = 12),
    key_hash              BYTEA       NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    rate_limit_per_minute INTEGER     NOT NULL CHECK (rate_limit_per_minute > 0),
    expires_at            TIMESTAMPTZ,
    created_at            TIMESTAMPTZ NOT NULL,
    revoked_at            TIMESTAMPTZ
);

CREATE INDEX api_key_owner ON api_key (owner_id, created_at DESC);

-- Subjects of an external identity provider, mapped to owners on first sight.
CREATE TABLE external_identity (
    issuer     TEXT        NOT NULL,
    subject    TEXT        NOT NULL,
    owner_id   UUID        NOT NULL REFERENCES owner (id),
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (issuer, subject)
);

-- The built-in token issuer's RS256 key pair (PKCS#8 private, X.509 public).
CREATE TABLE signing_key (
    kid         TEXT        PRIMARY KEY,
    private_key BYTEA       NOT NULL,
    public_key  BYTEA       NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
