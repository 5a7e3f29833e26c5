package org.agentplatform.infra.app.task;

import java.util.List;
import java.util.UUID;
import org.agentplatform.command.task.QueuedTasks;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;
import org.springframework.jdbc.core.JdbcTemplate;

/** The queued tasks of an instance, from the task read model, oldest first. */
final class JdbcQueuedTasks implements QueuedTasks {

    private final JdbcTemplate jdbc;

    JdbcQueuedTasks(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<TaskId> queuedOn(InstanceId instance) {
        return jdbc.queryForList("SELECT id FROM task_view WHERE instance_id = ? AND status = 'queued' AND turn = 0 ORDER BY created_at",
                UUID.class, instance.value()).stream().map(TaskId::new).toList();
    }
}
