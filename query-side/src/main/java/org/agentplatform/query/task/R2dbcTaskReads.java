package org.agentplatform.query.task;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.ReadModelWaits;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

public final class R2dbcTaskReads implements TaskReads {

    /**
     * A chunk is readable once the rows of the event that opened its window are: the runtime streams a turn's
     * chunks as soon as the turn starts, and the projection may write that event's status row a moment later,
     * with a lower offset. Shown before it, the chunks would move a reader's cursor past the status row.
     */
    private static final String READABLE_CHUNK = "EXISTS (SELECT 1 FROM task_message m WHERE m.task_id = c.task_id"
            + " AND m.log_offset >= (c.log_offset >> " + TaskOffsets.WINDOW_BITS + ") << " + TaskOffsets.WINDOW_BITS
            + " AND m.log_offset < ((c.log_offset >> " + TaskOffsets.WINDOW_BITS + ") << " + TaskOffsets.WINDOW_BITS + ") + "
            + TaskOffsets.FIRST_CHUNK + ")";
    /** The log's true last offset: its events' rows (kept in the snapshot) or the readable chunks streamed after them. */
    private static final String COLUMNS = "id, owner_id, agent_id, instance_id, context_id, origin, status, turn, text, error_code,"
            + " error_message, deadline, GREATEST(last_offset, (SELECT max(c.log_offset) FROM task_chunk c WHERE c.task_id = task_view.id"
            + " AND " + READABLE_CHUNK + ")) AS last_offset, change_offset, pruned_through, version, created_at, updated_at";
    private static final String MESSAGES = "SELECT log_offset, kind, turn, role, status, text, attachments, data, occurred_at"
            + " FROM task_message WHERE task_id = :id AND log_offset > :since";
    private static final String CHUNKS = "SELECT log_offset, kind, turn, 'agent' AS role, NULL AS status, text, NULL::jsonb AS attachments,"
            + " NULL::jsonb AS data, created_at AS occurred_at FROM task_chunk c WHERE task_id = :id AND log_offset > :since AND "
            + READABLE_CHUNK;

    private final DatabaseClient database;
    private final ReadModelWaits waits;

    public R2dbcTaskReads(DatabaseClient database, ReadModelWaits waits) {
        this.database = database;
        this.waits = waits;
    }

    @Override
    public Mono<TaskRecord> find(TaskId taskId) {
        return database.sql("SELECT " + COLUMNS + " FROM task_view WHERE id = :id")
                .bind("id", taskId.value())
                .map(R2dbcTaskReads::task)
                .one();
    }

    @Override
    public Mono<TaskRecord> findCreated(TaskId taskId, Duration wait) {
        return find(taskId).switchIfEmpty(Mono.defer(() -> database.sql(
                        "SELECT EXISTS (SELECT 1 FROM domain_event_entry WHERE aggregate_identifier = :id) AS stored")
                .bind("id", taskId.toString())
                .map(row -> Boolean.TRUE.equals(row.get("stored", Boolean.class)))
                .one()
                .filter(stored -> stored)
                .flatMap(stored -> awaitState(taskId, task -> true, wait))));
    }

    @Override
    public Mono<TaskRecord> awaitState(TaskId taskId, Predicate<TaskRecord> reached, Duration wait) {
        return waits.until(TaskProjection.CHANNEL, taskId, () -> find(taskId), reached, wait);
    }

    @Override
    public Flux<TaskRecord> list(OwnerId ownerId, AgentId agentId, Long since, int limit) {
        String agentFilter = agentId == null ? "" : " AND agent_id = :agent";
        String order = since == null ? " ORDER BY change_offset DESC" : " AND change_offset > :since ORDER BY change_offset";
        DatabaseClient.GenericExecuteSpec query = database.sql("SELECT " + COLUMNS + " FROM task_view WHERE owner_id = :owner"
                        + agentFilter + order + " LIMIT :limit")
                .bind("owner", ownerId.value())
                .bind("limit", limit);
        if (agentId != null) {
            query = query.bind("agent", agentId.value());
        }
        if (since != null) {
            query = query.bind("since", since);
        }
        return query.map(R2dbcTaskReads::task).all();
    }

    @Override
    public Flux<TaskLogEntry> log(TaskId taskId, long since, boolean withChunks, int limit) {
        String sql = withChunks ? MESSAGES + " UNION ALL " + CHUNKS : MESSAGES;
        return database.sql(sql + " ORDER BY log_offset LIMIT :limit")
                .bind("id", taskId.value())
                .bind("since", since)
                .bind("limit", limit)
                .map(R2dbcTaskReads::entry)
                .all();
    }

    @Override
    public Mono<History> history(TaskId taskId, int cap) {
        return database.sql(MESSAGES + " ORDER BY log_offset DESC LIMIT :limit")
                .bind("id", taskId.value())
                .bind("since", -1L)
                .bind("limit", cap + 1)
                .map(R2dbcTaskReads::entry)
                .all()
                .collectList()
                .map(newestFirst -> {
                    List<TaskLogEntry> entries = new ArrayList<>(newestFirst.subList(0, Math.min(cap, newestFirst.size())));
                    Collections.reverse(entries);
                    return new History(entries, newestFirst.size() > cap);
                });
    }

    @Override
    public Mono<TaskRecord> awaitVersion(TaskId taskId, long version, Duration wait) {
        return awaitState(taskId, task -> task.version() >= version, wait);
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

    @SuppressWarnings("unchecked")
    private static TaskLogEntry entry(Readable row) {
        Object attachments = JsonColumns.readValue(row, "attachments");
        return new TaskLogEntry(
                row.get("log_offset", Long.class),
                row.get("kind", String.class),
                row.get("turn", Integer.class),
                row.get("role", String.class),
                row.get("status", String.class),
                row.get("text", String.class),
                attachments == null ? List.of() : (List<Object>) attachments,
                JsonColumns.readObject(row, "data"),
                row.get("occurred_at", Instant.class));
    }
}
