-- How far the recovery of lost turn hand-offs has checked the event store, per dispatcher (StartedTurns): every turn
-- start at or below the position is known to the runtime, ended, or was handed to it again.
CREATE TABLE turn_recovery (
    dispatcher TEXT   PRIMARY KEY,
    position   BIGINT NOT NULL
);

-- The turn starts among the events, for that check: a partial index, so the rest of the store costs it nothing.
CREATE INDEX domain_event_turn_starts ON domain_event_entry (global_index) WHERE payload_type IN (
    'org.agentplatform.kernel.task.TaskEvent$TaskStarted',
    'org.agentplatform.kernel.task.TaskEvent$TaskContinued',
    'org.agentplatform.kernel.conversation.ConversationEvent$TurnStarted');
