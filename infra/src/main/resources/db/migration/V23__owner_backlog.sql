-- An owner's unfinished tasks, counted at each task create's admission (OwnerBacklog), by kind: invokes apart.
CREATE INDEX task_view_unfinished ON task_view (owner_id, origin) WHERE status IN ('queued', 'running');
