-- Per-key quotas (rate_limit_per_minute), shared by every node: one GCRA bucket per (credential or login subject,
-- endpoint, limit), named by a hash of those. tat is the theoretical arrival time and seen the database's clock at
-- the last decision, both in microseconds since the epoch; granted is what that decision gave (a node leases up to
-- one second of budget at once). A row whose tat has passed is a full bucket and may be deleted.
CREATE TABLE key_quota (
    bucket  BYTEA   PRIMARY KEY,
    tat     BIGINT  NOT NULL,
    granted INTEGER NOT NULL,
    seen    BIGINT  NOT NULL
);
