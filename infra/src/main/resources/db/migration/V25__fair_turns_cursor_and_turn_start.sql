-- A share's cursor (LocalAgentTurns): every turn of the share still waiting has a log_window above claimed_through. A
-- claim reads the share's waiting turns from there, so it starts at the first one still waiting instead of walking the
-- index entries of the turns claimed before it (dead until a vacuum: under a large backlog, a walk that grew with every
-- claim). A claim moves it up to the last turn it took; a turn handed in below it (two dispatchers' segments record out
-- of order) moves it down.
ALTER TABLE local_fair_share ADD COLUMN claimed_through BIGINT NOT NULL DEFAULT -1;

-- When a worker began the turn (null: it never ran, its instance or agent gone), recorded with its outcome: a report made
-- again after a crash tells the task when its turn began, as the first report did.
ALTER TABLE local_turn ADD COLUMN began_at TIMESTAMPTZ;
