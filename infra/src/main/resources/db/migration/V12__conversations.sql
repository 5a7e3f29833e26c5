-- Conversations, and one log for tasks and conversations alike: a channel (a task's or a conversation's id)
-- has its rows in channel_message and its streaming chunks in channel_chunk (see ChannelLog, ChannelChunks).

ALTER TABLE task_message RENAME TO channel_message;
ALTER TABLE channel_message RENAME COLUMN task_id TO channel_id;
ALTER TABLE task_chunk RENAME TO channel_chunk;
ALTER TABLE channel_chunk RENAME COLUMN task_id TO channel_id;
ALTER INDEX task_chunk_age RENAME TO channel_chunk_age;

CREATE TABLE conversation_view (
    id             UUID        PRIMARY KEY,
    owner_id       UUID        NOT NULL,
    agent_id       UUID        NOT NULL,
    instance_id    UUID        NOT NULL,
    context_id     TEXT        NOT NULL,
    title          TEXT,
    status         TEXT        NOT NULL,
    turn           INTEGER     NOT NULL,
    turn_status    TEXT,
    messages       INTEGER     NOT NULL,
    text           TEXT,
    error_code     TEXT,
    error_message  TEXT,
    last_offset    BIGINT      NOT NULL,
    change_offset  BIGINT      NOT NULL,
    opened_offset  BIGINT      NOT NULL,
    pruned_through BIGINT,
    version        BIGINT      NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

CREATE INDEX conversation_view_owner ON conversation_view (owner_id, agent_id, opened_offset DESC);
CREATE INDEX conversation_view_running ON conversation_view (updated_at) WHERE turn_status = 'running';

-- The local runtime's turns are of tasks and conversations: kind says which, channel_id is its id.
ALTER TABLE local_task_turn RENAME TO local_turn;
ALTER TABLE local_turn RENAME COLUMN task_id TO channel_id;
ALTER TABLE local_turn ADD COLUMN kind TEXT NOT NULL DEFAULT 'task';
ALTER INDEX local_task_turn_live RENAME TO local_turn_live;
