package org.agentplatform.infra.app.operation;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.operation.OperationDispatcher;
import org.agentplatform.command.operation.OperationProjector.PendingProjection;
import org.agentplatform.command.operation.OperationProjector;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recovers what the event-driven path can lose in a crash or a race: queued operations of running
 * instances that nobody started, and committed operations whose projection never completed. Both
 * steps are idempotent, so sweeping what is merely slow does no harm.
 */
final class OperationSweeper {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration GRACE = Duration.ofSeconds(2);

    private final JdbcTemplate jdbc;
    private final OperationDispatcher dispatcher;
    private final OperationProjector projector;
    private final Clock clock;

    OperationSweeper(JdbcTemplate jdbc, OperationDispatcher dispatcher, OperationProjector projector, Clock clock) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.projector = projector;
        this.clock = clock;
    }

    void sweep() {
        OffsetDateTime settled = OffsetDateTime.ofInstant(clock.instant().minus(GRACE), ZoneOffset.UTC);
        jdbc.queryForList("SELECT DISTINCT o.instance_id FROM operation_view o JOIN instance_view i ON i.id = o.instance_id"
                        + " WHERE o.status = 'queued' AND o.created_at < ? AND i.status = 'running'", UUID.class, settled)
                .forEach(instance -> dispatcher.dispatchQueuedOn(new InstanceId(instance)));
        List<Map<String, Object>> pending = jdbc.queryForList("SELECT id, instance_id, owner_id, method, params::text AS params,"
                + " result::text AS result FROM operation_view WHERE status = 'projection_pending' AND updated_at < ?", settled);
        pending.forEach(row -> projector.project(new PendingProjection(
                new OperationId((UUID) row.get("id")),
                new InstanceId((UUID) row.get("instance_id")),
                new OwnerId((UUID) row.get("owner_id")),
                RuntimeMethod.fromWireName((String) row.get("method")).orElseThrow(),
                JSON.readValue((String) row.get("params"), new TypeReference<Map<String, Object>>() {
                }),
                row.get("result") == null ? null : JSON.readValue((String) row.get("result"), Object.class))));
    }
}
