package org.agentplatform.infra.task;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.task.TaskTurn;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.query.task.TaskChunks;
import org.agentplatform.query.task.TaskOffsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recovers what the event-driven path of tasks can lose in a crash: queued tasks of running instances
 * that nobody started, and started turns the runtime never received (it takes over its own silent turns
 * and reports unreported outcomes). Also prunes streaming chunks past their retention.
 */
final class TaskSweeper {

    private static final Logger log = LoggerFactory.getLogger(TaskSweeper.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final int PRUNE_BATCH = 10_000;

    private final JdbcTemplate jdbc;
    private final TaskDispatcher dispatcher;
    private final LocalRuntime runtime;
    private final TaskChunks chunks;
    private final Clock clock;
    private final Duration chunkRetention;

    TaskSweeper(JdbcTemplate jdbc, TaskDispatcher dispatcher, LocalRuntime runtime, TaskChunks chunks, Clock clock,
            Duration chunkRetention) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.runtime = runtime;
        this.chunks = chunks;
        this.clock = clock;
        this.chunkRetention = chunkRetention;
    }

    void sweep() {
        OffsetDateTime settled = OffsetDateTime.ofInstant(clock.instant().minus(GRACE), ZoneOffset.UTC);
        jdbc.queryForList("SELECT DISTINCT t.instance_id FROM task_view t JOIN instance_view i ON i.id = t.instance_id"
                        + " WHERE t.status = 'queued' AND t.updated_at < ? AND i.status = 'running'", UUID.class, settled)
                .forEach(instance -> dispatcher.dispatchQueuedOn(new InstanceId(instance)));
        jdbc.query("SELECT t.id, t.owner_id, t.agent_id, t.instance_id, t.context_id, t.turn, t.change_offset, i.runtime_epoch, m.text,"
                + " m.attachments::text AS attachments FROM task_view t JOIN instance_view i ON i.id = t.instance_id"
                + " JOIN task_message m ON m.task_id = t.id AND m.turn = t.turn AND m.kind = 'user_message'"
                + " WHERE t.status = 'running' AND t.updated_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM local_task_turn l WHERE l.task_id = t.id AND l.turn = t.turn)", row -> {
                    TaskRef task = new TaskRef(new TaskId(row.getObject("id", UUID.class)), new OwnerId(row.getObject("owner_id", UUID.class)),
                            new AgentId(row.getObject("agent_id", UUID.class)), new InstanceId(row.getObject("instance_id", UUID.class)),
                            row.getString("context_id"));
                    log.atInfo().addKeyValue("task_id", task.taskId().toString()).log("handing a started turn to the runtime again");
                    // a running task's latest event started its turn: the turn's chunks go in that event's window
                    runtime.startTurn(new TaskTurn(task, row.getInt("turn"), row.getLong("runtime_epoch"),
                            TaskOffsets.windowOf(row.getLong("change_offset")),
                            TaskMessage.user(row.getString("text"), attachments(row.getString("attachments")))));
                }, settled);
        runtime.recoverTurns();
        chunks.prune(chunkRetention, PRUNE_BATCH);
    }

    private static List<Attachment> attachments(String json) {
        List<Attachment> attachments = new ArrayList<>();
        if (json != null) {
            for (JsonNode item : JSON.readTree(json)) {
                attachments.add(new Attachment(item.path("file_id").asString(), item.path("name").asString(null),
                        item.path("content_type").asString(null), item.path("size_bytes").asLong(), item.path("sha256").asString(null)));
            }
        }
        return attachments;
    }
}
