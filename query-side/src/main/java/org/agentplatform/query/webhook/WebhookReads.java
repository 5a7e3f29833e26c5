package org.agentplatform.query.webhook;

import java.time.Duration;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.query.Page;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of webhooks and their delivery audit. Access rules are the caller's to apply. */
public interface WebhookReads {

    /** A page of the task's webhooks that are not removed, newest first, after {@code before} (a page's cursor). */
    Mono<Page<WebhookRecord>> webhooksOf(TaskId taskId, @Nullable Long before, int limit);

    /** The webhook, removed or not. */
    Mono<WebhookRecord> find(WebhookId webhookId);

    Mono<WebhookRecord> awaitVersion(WebhookId webhookId, long version, Duration wait);

    /** The webhook's deliveries, newest first. */
    Flux<DeliveryRecord> deliveries(WebhookId webhookId, int limit);

    Mono<DeliveryRecord> delivery(DeliveryId deliveryId);

    Mono<DeliveryRecord> awaitDelivery(DeliveryId deliveryId, Duration wait);
}
