package org.agentplatform.query.webhook;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.DeliveryStatus;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.query.Page;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RowQuery;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

public final class R2dbcWebhookReads implements WebhookReads {

    private static final String WEBHOOK = "id, task_id, owner_id, url, has_secret, has_token, removed, version, created_at, updated_at";
    private static final String DELIVERY = "id, webhook_id, task_id, renderer, status, attempt_num, last_response_status, last_error,"
            + " next_attempt_at, last_attempted_at, created_at, completed_at, duration_ms, response_snippet, redelivery_of";

    /** A webhook delivery by {@code :id}. */
    public static final RowQuery<DeliveryRecord> DELIVERY_BY_ID = new RowQuery<>("SELECT " + DELIVERY + " FROM delivery_view WHERE id = :id",
            R2dbcWebhookReads::deliveryRow);

    private final DatabaseClient database;
    private final ReadModelWaits waits;

    public R2dbcWebhookReads(DatabaseClient database, ReadModelWaits waits) {
        this.database = database;
        this.waits = waits;
    }

    @Override
    public Mono<Page<WebhookRecord>> webhooksOf(TaskId taskId, @Nullable Long before, int limit) {
        return Page.newestFirst(database, "SELECT " + WEBHOOK + ", list_offset FROM webhook_view WHERE task_id = :task AND NOT removed",
                query -> query.bind("task", taskId.value()), before, limit, R2dbcWebhookReads::webhookRow);
    }

    @Override
    public Mono<WebhookRecord> find(WebhookId webhookId) {
        return database.sql("SELECT " + WEBHOOK + " FROM webhook_view WHERE id = :id")
                .bind("id", webhookId.value())
                .map(R2dbcWebhookReads::webhookRow)
                .one();
    }

    @Override
    public Mono<WebhookRecord> awaitVersion(WebhookId webhookId, long version, Duration wait) {
        return waits.until(webhookId, () -> find(webhookId), webhook -> webhook.version() >= version, wait);
    }

    @Override
    public Flux<DeliveryRecord> deliveries(WebhookId webhookId, int limit) {
        return database.sql("SELECT " + DELIVERY + " FROM delivery_view WHERE webhook_id = :webhook ORDER BY created_at DESC, id LIMIT :limit")
                .bind("webhook", webhookId.value())
                .bind("limit", limit)
                .map(R2dbcWebhookReads::deliveryRow)
                .all();
    }

    @Override
    public Mono<DeliveryRecord> delivery(DeliveryId deliveryId) {
        return database.sql(DELIVERY_BY_ID.sql())
                .bind("id", deliveryId.value())
                .map(R2dbcWebhookReads::deliveryRow)
                .one();
    }

    @Override
    public Mono<DeliveryRecord> awaitDelivery(DeliveryId deliveryId, Duration wait) {
        return waits.until(deliveryId, () -> delivery(deliveryId), delivery -> true, wait);
    }

    private static WebhookRecord webhookRow(Readable row) {
        return new WebhookRecord(
                new WebhookId(row.get("id", UUID.class)),
                new TaskId(row.get("task_id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                row.get("url", String.class),
                row.get("has_secret", Boolean.class),
                row.get("has_token", Boolean.class),
                row.get("removed", Boolean.class),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }

    private static DeliveryRecord deliveryRow(Readable row) {
        UUID source = row.get("redelivery_of", UUID.class);
        return new DeliveryRecord(
                new DeliveryId(row.get("id", UUID.class)),
                new WebhookId(row.get("webhook_id", UUID.class)),
                new TaskId(row.get("task_id", UUID.class)),
                row.get("renderer", String.class),
                DeliveryStatus.fromWireName(row.get("status", String.class)).orElseThrow(),
                row.get("attempt_num", Integer.class),
                row.get("last_response_status", Integer.class),
                row.get("last_error", String.class),
                row.get("next_attempt_at", Instant.class),
                row.get("last_attempted_at", Instant.class),
                row.get("created_at", Instant.class),
                row.get("completed_at", Instant.class),
                row.get("duration_ms", Long.class),
                row.get("response_snippet", String.class),
                source == null ? null : new DeliveryId(source));
    }
}
