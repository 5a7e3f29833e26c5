-- A turn's chunks are placed in the log window of the event that started it (TaskOffsets.ofChunk): the
-- runtime keeps that event's global index with the turn, so a turn run again (after a crash) places them
-- the same.
ALTER TABLE local_task_turn ADD COLUMN log_window BIGINT NOT NULL DEFAULT 0;
