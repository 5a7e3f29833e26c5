-- Each owner's data keys (crypto-shredding, OwnerDataKeys): AES-256 keys sealed by the vault key, never in the event
-- store. Erasing an owner's content destroys its keys' material (nonce and sealed_key NULL, erased_at set); the rows
-- stay, so a text sealed with an erased key reads as erased rather than lost. One current key per owner.
CREATE TABLE owner_data_key (
    id         UUID        PRIMARY KEY,
    owner_id   UUID        NOT NULL,
    nonce      BYTEA,
    sealed_key BYTEA,
    created_at TIMESTAMPTZ NOT NULL,
    erased_at  TIMESTAMPTZ,
    CHECK ((erased_at IS NULL) = (sealed_key IS NOT NULL))
);

CREATE UNIQUE INDEX owner_data_key_current ON owner_data_key (owner_id) WHERE erased_at IS NULL;
