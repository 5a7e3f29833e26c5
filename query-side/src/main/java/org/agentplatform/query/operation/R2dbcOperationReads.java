package org.agentplatform.query.operation;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.JsonColumns;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RowQuery;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

public final class R2dbcOperationReads implements OperationReads {

    private static final String COLUMNS = "id, instance_id, owner_id, method, status, sequence, params, resource_key, request_digest,"
            + " request_id, deadline, runtime_epoch, cancel_request, projection, result, error, created_at, updated_at";

    /** An operation by {@code :id}. */
    public static final RowQuery<OperationRecord> BY_ID = new RowQuery<>("SELECT " + COLUMNS + " FROM operation_view WHERE id = :id",
            R2dbcOperationReads::record);

    private final DatabaseClient database;
    private final ReadModelWaits waits;
    private final StoredOperations stored;

    public R2dbcOperationReads(DatabaseClient database, ReadModelWaits waits, StoredOperations stored) {
        this.database = database;
        this.waits = waits;
        this.stored = stored;
    }

    @Override
    public Mono<OperationRecord> find(OperationId operationId) {
        return database.sql(BY_ID.sql())
                .bind("id", operationId.value())
                .map(R2dbcOperationReads::record)
                .one();
    }

    @Override
    public Mono<OperationRecord> findAccepted(OperationId operationId) {
        return find(operationId).switchIfEmpty(Mono.defer(() -> fromStore(operationId)));
    }

    /** The operation as its stored events make it, folded off the event loop. */
    private Mono<OperationRecord> fromStore(OperationId operationId) {
        return Mono.fromCallable(() -> stored.fold(operationId)).subscribeOn(Schedulers.boundedElastic()).flatMap(Mono::justOrEmpty);
    }

    @Override
    public Flux<OperationEventRecord> eventsAfter(OperationId operationId, long sequence) {
        return database.sql("SELECT e.operation_id, v.instance_id, e.sequence, e.type, e.status, e.data, e.occurred_at"
                        + " FROM operation_event e JOIN operation_view v ON v.id = e.operation_id"
                        + " WHERE e.operation_id = :id AND e.sequence > :after ORDER BY e.sequence")
                .bind("id", operationId.value())
                .bind("after", sequence)
                .map(row -> new OperationEventRecord(
                        new OperationId(row.get("operation_id", UUID.class)),
                        new InstanceId(row.get("instance_id", UUID.class)),
                        row.get("sequence", Long.class),
                        row.get("type", String.class),
                        OperationStatus.fromWireName(row.get("status", String.class)),
                        JsonColumns.readObject(row, "data"),
                        row.get("occurred_at", Instant.class)))
                .all();
    }

    @Override
    public Mono<OperationRecord> awaitSequence(OperationId operationId, long sequence, Duration wait) {
        return waits.until(OperationViewProjection.CHANNEL, operationId, () -> find(operationId), operation -> operation.sequence() >= sequence, wait)
                .switchIfEmpty(Mono.defer(() -> fromStore(operationId).filter(operation -> operation.sequence() >= sequence)));
    }

    @Override
    public Mono<OperationRecord> awaitTerminal(OperationId operationId, Duration wait) {
        return waits.until(OperationViewProjection.CHANNEL, operationId, () -> find(operationId), operation -> operation.status().isTerminal(), wait);
    }

    @Override
    public Mono<OperationRecord> latestOnResource(OwnerId ownerId, String resourceKey, Instant since) {
        return database.sql("SELECT " + COLUMNS + " FROM operation_view WHERE owner_id = :owner AND resource_key = :resource"
                        + " AND created_at > :since ORDER BY created_at DESC LIMIT 1")
                .bind("owner", ownerId.value())
                .bind("resource", resourceKey)
                .bind("since", since)
                .map(R2dbcOperationReads::record)
                .one();
    }

    private static OperationRecord record(Readable row) {
        return new OperationRecord(
                new OperationId(row.get("id", UUID.class)),
                new InstanceId(row.get("instance_id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                RuntimeMethod.fromWireName(row.get("method", String.class)).orElseThrow(),
                OperationStatus.fromWireName(row.get("status", String.class)),
                row.get("sequence", Long.class),
                JsonColumns.readObject(row, "params"),
                row.get("resource_key", String.class),
                row.get("request_digest", String.class),
                row.get("request_id", String.class),
                row.get("deadline", Instant.class),
                row.get("runtime_epoch", Long.class),
                JsonColumns.readObject(row, "cancel_request"),
                JsonColumns.readObject(row, "projection"),
                JsonColumns.readValue(row, "result"),
                JsonColumns.readObject(row, "error"),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }
}
