package org.agentplatform.query.instance;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.Page;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RowQuery;
import org.agentplatform.query.StoredAggregates;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

public final class R2dbcInstanceReads implements InstanceReads {

    private static final String COLUMNS = "id, owner_id, name, provider_id, region_id, kind, status, runtime_epoch,"
            + " failure_reason, version, created_at, updated_at";

    /** An instance by {@code :id}. */
    public static final RowQuery<InstanceRecord> BY_ID = new RowQuery<>("SELECT " + COLUMNS + " FROM instance_view WHERE id = :id",
            R2dbcInstanceReads::record);

    private final DatabaseClient database;
    private final ReadModelWaits waits;

    public R2dbcInstanceReads(DatabaseClient database, ReadModelWaits waits) {
        this.database = database;
        this.waits = waits;
    }

    @Override
    public Mono<InstanceRecord> find(OwnerId ownerId, InstanceId instanceId) {
        return database.sql("SELECT " + COLUMNS + " FROM instance_view WHERE id = :id AND owner_id = :owner")
                .bind("id", instanceId.value())
                .bind("owner", ownerId.value())
                .map(R2dbcInstanceReads::record)
                .one();
    }

    @Override
    public Mono<InstanceRecord> find(InstanceId instanceId) {
        return database.sql(BY_ID.sql())
                .bind("id", instanceId.value())
                .map(R2dbcInstanceReads::record)
                .one();
    }

    @Override
    public Mono<InstanceRecord> findAccepted(OwnerId ownerId, InstanceId instanceId, Duration wait) {
        return find(ownerId, instanceId)
                .switchIfEmpty(Mono.defer(() -> StoredAggregates.awaitRow(database, waits, instanceId.value(), () -> find(instanceId), wait)
                        .filter(instance -> instance.ownerId().equals(ownerId))));
    }

    @Override
    public Mono<Page<InstanceRecord>> list(OwnerId ownerId, @Nullable Long before, int limit) {
        return Page.newestFirst(database, "SELECT " + COLUMNS + ", list_offset FROM instance_view WHERE owner_id = :owner",
                query -> query.bind("owner", ownerId.value()), before, limit, R2dbcInstanceReads::record);
    }

    @Override
    public Mono<InstanceRecord> awaitVersion(OwnerId ownerId, InstanceId instanceId, long version, Duration wait) {
        return waits.until(instanceId, () -> find(ownerId, instanceId), instance -> instance.version() >= version, wait);
    }

    private static InstanceRecord record(Readable row) {
        return new InstanceRecord(
                new InstanceId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                row.get("name", String.class),
                row.get("provider_id", String.class),
                row.get("region_id", String.class),
                InstanceKind.fromWireName(row.get("kind", String.class)).orElseThrow(),
                InstanceStatus.fromWireName(row.get("status", String.class)),
                row.get("runtime_epoch", Long.class),
                row.get("failure_reason", String.class),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }
}
