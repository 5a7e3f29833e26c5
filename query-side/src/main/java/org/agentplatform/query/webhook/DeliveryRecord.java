package org.agentplatform.query.webhook;

import java.time.Instant;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.DeliveryStatus;
import org.agentplatform.kernel.webhook.WebhookId;

/** A delivery's audit row (its payload is kept for the dispatcher, not here). */
public record DeliveryRecord(
        DeliveryId id,
        WebhookId webhookId,
        TaskId taskId,
        String renderer,
        DeliveryStatus status,
        int attemptNum,
        int lastResponseStatus,
        String lastError,
        Instant nextAttemptAt,
        Instant lastAttemptedAt,
        Instant createdAt,
        Instant completedAt,
        Long durationMs,
        String responseSnippet,
        DeliveryId redeliveryOf) {
}
