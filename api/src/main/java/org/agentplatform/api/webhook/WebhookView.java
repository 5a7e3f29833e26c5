package org.agentplatform.api.webhook;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.query.webhook.DeliveryRecord;
import org.agentplatform.query.webhook.WebhookRecord;
import org.jspecify.annotations.Nullable;

/** The wire shapes of a webhook (never its token or secret) and of a delivery row (never its payload). */
final class WebhookView {

    private WebhookView() {
    }

    record Webhook(
            @JsonProperty("webhook_id") String webhookId,
            @JsonProperty("task_id") String taskId,
            String url,
            @JsonProperty("has_secret") boolean hasSecret,
            @JsonProperty("has_token") boolean hasToken,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("updated_at") Instant updatedAt) {

        static Webhook of(WebhookRecord webhook) {
            return new Webhook(webhook.id().toString(), webhook.taskId().toString(), webhook.url(), webhook.hasSecret(), webhook.hasToken(),
                    webhook.createdAt(), webhook.updatedAt());
        }
    }

    /** The contract's delivery row, plus diagnostics: duration, a snippet of the answer, the source of a redelivery. */
    record Delivery(
            @JsonProperty("delivery_id") String deliveryId,
            @JsonProperty("webhook_id") String webhookId,
            @JsonProperty("task_id") String taskId,
            String renderer,
            String status,
            @JsonProperty("attempt_num") int attemptNum,
            @JsonProperty("last_response_status") int lastResponseStatus,
            @JsonProperty("last_error") String lastError,
            @JsonProperty("next_attempt_at") @Nullable Instant nextAttemptAt,
            @JsonProperty("last_attempted_at") @Nullable Instant lastAttemptedAt,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("completed_at") @Nullable Instant completedAt,
            @JsonProperty("duration_ms") @Nullable Long durationMs,
            @JsonProperty("response_snippet") @Nullable String responseSnippet,
            @JsonProperty("redelivery_of") @Nullable String redeliveryOf) {

        /** The row as it was created (pending, no attempt yet), whatever its first attempt has done since. */
        static Delivery asCreated(DeliveryRecord delivery) {
            return new Delivery(delivery.id().toString(), delivery.webhookId().toString(), delivery.taskId().toString(),
                    delivery.renderer(), "pending", 0, 0, "", null, null, delivery.createdAt(), null, null, null,
                    delivery.redeliveryOf() == null ? null : delivery.redeliveryOf().toString());
        }

        static Delivery of(DeliveryRecord delivery) {
            return new Delivery(delivery.id().toString(), delivery.webhookId().toString(), delivery.taskId().toString(), delivery.renderer(),
                    delivery.status().wireName(), delivery.attemptNum(), delivery.lastResponseStatus(), delivery.lastError(),
                    delivery.nextAttemptAt(), delivery.lastAttemptedAt(), delivery.createdAt(), delivery.completedAt(),
                    delivery.durationMs(), delivery.responseSnippet(),
                    delivery.redeliveryOf() == null ? null : delivery.redeliveryOf().toString());
        }
    }
}
