package org.agentplatform.query.task;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RowQuery;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.channel.ChannelReads;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

public final class R2dbcTaskReads implements TaskReads {

    private static final String COLUMNS = "id, owner_id, agent_id, instance_id, context_id, origin, status, turn, text, error_code,"
            + " error_message, deadline, " + ChannelReads.lastOffsetColumn("task_view") + ", change_offset, pruned_through, version,"
            + " created_at, updated_at";

    /** A task by {@code :id}. */
    public static final RowQuery<TaskRecord> BY_ID = new RowQuery<>("SELECT " + COLUMNS + " FROM task_view WHERE id = :id",
            R2dbcTaskReads::task);

    /**
     * The owner's queued and running tasks of one kind (the partial index task_view_unfinished), those settled (ended, or waiting for
     * the caller) since a change offset (the inbox index, from that offset on), its latest change, and which of the pending ids are shown.
     */
    private static final String BACKLOG = "SELECT"
            + " (SELECT count(*) FROM task_view WHERE owner_id = :owner AND status IN ('queued', 'running')"
            + " AND (origin = 'invoke') = :invokes) AS unfinished,"
            + " (SELECT count(*) FROM task_view WHERE owner_id = :owner AND change_offset > :since AND (origin = 'invoke') = :invokes"
            + " AND status IN (" + Arrays.stream(TaskStatus.values()).filter(TaskStatus::isSettled)
                    .map(status -> "'" + status.wireName() + "'").collect(Collectors.joining(", ")) + ")) AS ended,"
            + " (SELECT coalesce(max(change_offset), 0) FROM task_view WHERE owner_id = :owner) AS latest,"
            + " ARRAY(SELECT id FROM task_view WHERE id = ANY(:pending)) AS shown";

    private final DatabaseClient database;
    private final ReadModelWaits waits;
    private final ChannelReads channels;
    private final StoredTasks stored;

    public R2dbcTaskReads(DatabaseClient database, ReadModelWaits waits, StoredTasks stored) {
        this.database = database;
        this.waits = waits;
        this.channels = new ChannelReads(database);
        this.stored = stored;
    }

    @Override
    public Mono<TaskRecord> find(TaskId taskId) {
        return database.sql(BY_ID.sql())
                .bind("id", taskId.value())
                .map(BY_ID.row())
                .one();
    }

    @Override
    public Mono<TaskRecord> findCreated(TaskId taskId, Duration wait) {
        return channels.findStored(taskId.value(), () -> find(taskId), waits, wait);
    }

    @Override
    public Mono<TaskRecord> findAccepted(TaskId taskId, Duration wait) {
        return findCreated(taskId, wait).switchIfEmpty(Mono.defer(() -> fromStore(taskId)));
    }

    /** The task as its stored events make it, folded off the event loop. */
    private Mono<TaskRecord> fromStore(TaskId taskId) {
        return Mono.fromCallable(() -> stored.fold(taskId)).subscribeOn(Schedulers.boundedElastic()).flatMap(Mono::justOrEmpty);
    }

    @Override
    public Mono<TaskRecord> awaitState(TaskId taskId, Predicate<TaskRecord> reached, Duration wait) {
        return waits.until(ChannelLog.NOTIFICATIONS, taskId, () -> find(taskId), reached, wait);
    }

    @Override
    public Flux<TaskRecord> list(OwnerId ownerId, @Nullable AgentId agentId, @Nullable Long since, @Nullable Long before,
            Set<String> statuses, int limit) {
        String filters = (agentId == null ? "" : " AND agent_id = :agent") + (statuses.isEmpty() ? "" : " AND status = ANY(:statuses)")
                + (before == null ? "" : " AND change_offset < :before");
        String order = since == null ? " ORDER BY change_offset DESC" : " AND change_offset > :since ORDER BY change_offset";
        DatabaseClient.GenericExecuteSpec query = database.sql("SELECT " + COLUMNS + " FROM task_view WHERE owner_id = :owner"
                        + filters + order + " LIMIT :limit")
                .bind("owner", ownerId.value())
                .bind("limit", limit);
        if (agentId != null) {
            query = query.bind("agent", agentId.value());
        }
        if (!statuses.isEmpty()) {
            query = query.bind("statuses", statuses.toArray(String[]::new));
        }
        if (before != null) {
            query = query.bind("before", before);
        }
        if (since != null) {
            query = query.bind("since", since);
        }
        return query.map(R2dbcTaskReads::task).all();
    }

    @Override
    public Flux<ChannelEntry> log(TaskId taskId, long since, boolean withChunks, int limit) {
        return channels.log(taskId.value(), since, withChunks, limit);
    }

    @Override
    public Mono<ChannelReads.History> history(TaskId taskId, int cap) {
        return channels.history(taskId.value(), cap);
    }

    @Override
    public Mono<TaskRecord> awaitVersion(TaskId taskId, long version, Duration wait) {
        return awaitState(taskId, task -> task.version() >= version, wait)
                .switchIfEmpty(Mono.defer(() -> fromStore(taskId).filter(task -> task.version() >= version)));
    }

    @Override
    public Mono<TaskBacklog> backlog(OwnerId ownerId, boolean invokes, long changedAfter, Collection<TaskId> pending) {
        return database.sql(BACKLOG)
                .bind("owner", ownerId.value())
                .bind("invokes", invokes)
                .bind("since", changedAfter)
                .bind("pending", pending.stream().map(TaskId::value).toArray(UUID[]::new))
                .map(row -> new TaskBacklog(row.get("unfinished", Long.class), row.get("ended", Long.class), row.get("latest", Long.class),
                        Arrays.stream(row.get("shown", UUID[].class)).map(TaskId::new).collect(Collectors.toUnmodifiableSet())))
                .one();
    }

    private static TaskRecord task(Readable row) {
        return new TaskRecord(
                new TaskId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                new AgentId(row.get("agent_id", UUID.class)),
                new InstanceId(row.get("instance_id", UUID.class)),
                row.get("context_id", String.class),
                TaskOrigin.fromWireName(row.get("origin", String.class)).orElseThrow(),
                TaskStatus.fromWireName(row.get("status", String.class)).orElseThrow(),
                row.get("turn", Integer.class),
                row.get("text", String.class),
                row.get("error_code", String.class),
                row.get("error_message", String.class),
                row.get("deadline", Instant.class),
                row.get("last_offset", Long.class),
                row.get("change_offset", Long.class),
                row.get("pruned_through", Long.class),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }
}
