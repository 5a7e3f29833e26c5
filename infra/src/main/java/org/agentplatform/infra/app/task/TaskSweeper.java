package org.agentplatform.infra.app.task;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.query.channel.ChannelChunks;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Recovers what the event-driven path of tasks and conversations can lose in a crash: queued tasks of running instances
 * that nobody started, started turns the runtime never received ({@link StartedTurns}, from the event store), the
 * runtime's own silent turns and unreported outcomes ({@link AgentRuntime#recoverTurns}). Also prunes streaming chunks
 * past their retention.
 */
final class TaskSweeper {

    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final int PRUNE_BATCH = 10_000;

    private final JdbcTemplate jdbc;
    private final TaskDispatcher dispatcher;
    private final StartedTurns startedTurns;
    private final AgentRuntime runtime;
    private final ChannelChunks chunks;
    private final Clock clock;
    private final Duration chunkRetention;

    TaskSweeper(JdbcTemplate jdbc, TaskDispatcher dispatcher, StartedTurns startedTurns, AgentRuntime runtime, ChannelChunks chunks,
            Clock clock, Duration chunkRetention) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.startedTurns = startedTurns;
        this.runtime = runtime;
        this.chunks = chunks;
        this.clock = clock;
        this.chunkRetention = chunkRetention;
    }

    void sweep() {
        OffsetDateTime settled = OffsetDateTime.ofInstant(clock.instant().minus(GRACE), ZoneOffset.UTC);
        jdbc.queryForList("SELECT DISTINCT t.instance_id FROM task_view t JOIN instance_view i ON i.id = t.instance_id"
                        + " WHERE t.status = 'queued' AND t.turn = 0 AND t.updated_at < ? AND i.status = 'running'", UUID.class, settled)
                .forEach(instance -> dispatcher.dispatchQueuedOn(new InstanceId(instance)));
        startedTurns.recover();
        runtime.recoverTurns();
        chunks.prune(chunkRetention, PRUNE_BATCH);
    }
}
