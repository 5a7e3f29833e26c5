package org.agentplatform.infra.app.operation;

import java.util.List;
import java.util.UUID;
import org.agentplatform.command.operation.QueuedOperations;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.springframework.jdbc.core.JdbcTemplate;

/** The queued operations of an instance, from the operation read model. */
final class JdbcQueuedOperations implements QueuedOperations {

    private final JdbcTemplate jdbc;

    JdbcQueuedOperations(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<OperationId> queuedOn(InstanceId instanceId) {
        return jdbc.queryForList("SELECT id FROM operation_view WHERE instance_id = ? AND status = 'queued' ORDER BY created_at",
                UUID.class, instanceId.value()).stream().map(OperationId::new).toList();
    }
}
