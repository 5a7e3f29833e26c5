-- Turns wait in PostgreSQL until a node's claimer takes them, in a fair order every node follows (LocalAgentTurns):
-- interactive turns (priority 0: invokes, conversation messages) before the others (1); within each, the owner whose
-- share has the lowest pass (stride scheduling: a claimed turn moves its owner's pass on by its stride, 1/weight);
-- within an owner, the turns in the order they were started (log_window).
ALTER TABLE local_turn ADD COLUMN priority SMALLINT NOT NULL DEFAULT 1;
CREATE INDEX local_turn_ready ON local_turn (owner_id, priority, log_window) WHERE state = 'ready';

-- One row per owner and priority: its pass, whether it has turns waiting (ready: 1 or 0), and its stride. Only the
-- waiting shares are indexed, by priority alone, so that moving a share's pass (every claim) is a HOT update.
CREATE TABLE local_fair_share (
    owner_id UUID             NOT NULL,
    priority SMALLINT         NOT NULL,
    pass     DOUBLE PRECISION NOT NULL,
    ready    INTEGER          NOT NULL,
    stride   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (owner_id, priority)
);
CREATE INDEX local_fair_share_waiting ON local_fair_share (priority) WHERE ready > 0;

-- The pass being served, per priority: where an owner that had nothing waiting rejoins.
CREATE TABLE local_fair_clock (
    priority SMALLINT         PRIMARY KEY,
    pass     DOUBLE PRECISION NOT NULL
);
INSERT INTO local_fair_clock (priority, pass) VALUES (0, 0), (1, 0);
