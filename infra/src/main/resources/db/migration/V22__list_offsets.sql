-- Every list pages newest first by a cursor that is a number (docs/api-conventions.md, Page): an item's list offset.
-- For the event-sourced read models it is the global index of the event that created the item, so a rebuild writes the
-- same offsets; rows made before this migration take the first event of their aggregate. API keys are not
-- event-sourced: a sequence of their table numbers them, the existing ones in the order they were made.
ALTER TABLE instance_view ADD COLUMN list_offset BIGINT;
UPDATE instance_view v SET list_offset = (SELECT min(e.global_index) FROM domain_event_entry e WHERE e.aggregate_identifier = v.id::text);
ALTER TABLE agent_view ADD COLUMN list_offset BIGINT;
UPDATE agent_view v SET list_offset = (SELECT min(e.global_index) FROM domain_event_entry e WHERE e.aggregate_identifier = v.id::text);
ALTER TABLE terminal_view ADD COLUMN list_offset BIGINT;
UPDATE terminal_view v SET list_offset = (SELECT min(e.global_index) FROM domain_event_entry e WHERE e.aggregate_identifier = v.id::text);
ALTER TABLE webhook_view ADD COLUMN list_offset BIGINT;
UPDATE webhook_view v SET list_offset = (SELECT min(e.global_index) FROM domain_event_entry e WHERE e.aggregate_identifier = v.id::text);
-- (an item whose aggregate has no event cannot exist; should one, it sorts oldest)
UPDATE instance_view SET list_offset = 0 WHERE list_offset IS NULL;
UPDATE agent_view SET list_offset = 0 WHERE list_offset IS NULL;
UPDATE terminal_view SET list_offset = 0 WHERE list_offset IS NULL;
UPDATE webhook_view SET list_offset = 0 WHERE list_offset IS NULL;
ALTER TABLE instance_view ALTER COLUMN list_offset SET NOT NULL;
ALTER TABLE agent_view ALTER COLUMN list_offset SET NOT NULL;
ALTER TABLE terminal_view ALTER COLUMN list_offset SET NOT NULL;
ALTER TABLE webhook_view ALTER COLUMN list_offset SET NOT NULL;

CREATE INDEX instance_view_list ON instance_view (owner_id, list_offset DESC);
CREATE INDEX agent_view_list ON agent_view (owner_id, list_offset DESC) WHERE NOT deleted;
CREATE INDEX agent_view_public_list ON agent_view (list_offset DESC) WHERE visibility = 'public' AND NOT deleted;
CREATE INDEX terminal_view_list ON terminal_view (instance_id, list_offset DESC);
CREATE INDEX webhook_view_list ON webhook_view (task_id, list_offset DESC) WHERE NOT removed;

CREATE SEQUENCE api_key_list_offset;
ALTER TABLE api_key ADD COLUMN list_offset BIGINT;
UPDATE api_key k SET list_offset = numbered.n
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM api_key) numbered WHERE numbered.id = k.id;
SELECT setval('api_key_list_offset', COALESCE((SELECT max(list_offset) FROM api_key), 0) + 1, false);
ALTER TABLE api_key ALTER COLUMN list_offset SET DEFAULT nextval('api_key_list_offset'), ALTER COLUMN list_offset SET NOT NULL;
ALTER SEQUENCE api_key_list_offset OWNED BY api_key.list_offset;
CREATE INDEX api_key_list ON api_key (owner_id, list_offset DESC) WHERE revoked_at IS NULL;
