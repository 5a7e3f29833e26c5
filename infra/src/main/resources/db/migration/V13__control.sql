-- The owner-scoped control budget: one GCRA per (owner, bucket). tat is the theoretical arrival time in
-- microseconds since the epoch; admitted is the latest decision (both written by the one statement that decides).
CREATE TABLE control_budget (
    owner_id UUID    NOT NULL,
    bucket   TEXT    NOT NULL,
    tat      BIGINT  NOT NULL,
    admitted BOOLEAN NOT NULL,
    PRIMARY KEY (owner_id, bucket)
);
