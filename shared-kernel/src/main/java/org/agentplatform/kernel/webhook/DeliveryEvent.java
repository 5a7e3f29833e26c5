package org.agentplatform.kernel.webhook;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;

/** Events of the {@code WebhookDelivery} aggregate; each says the status it leads to. */
public sealed interface DeliveryEvent {

    DeliveryId deliveryId();

    WebhookId webhookId();

    TaskId taskId();

    DeliveryStatus status();

    /**
     * A new pending delivery (attempt_num 0), signed at each attempt. A redelivery names its source.
     * {@code fixedSignature}: null; redeliveries stored before they were signed afresh carry the header they re-send.
     * {@code after}: the webhook's delivery made just before this one, which must have succeeded, been dead-lettered or
     * stopped before this one is sent (a task's transitions reach a receiver in order); null for a webhook's first, for a
     * redelivery (sent when asked), and in deliveries stored before the rule.
     */
    record DeliveryCreated(
            DeliveryId deliveryId,
            WebhookId webhookId,
            TaskId taskId,
            OwnerId ownerId,
            String payload,
            String fixedSignature,
            DeliveryId redeliveryOf,
            String fireId,
            DeliveryId after) implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.PENDING;
        }
    }

    /**
     * Attempt {@code attempt} is being sent (the delivery stays pending). Until its outcome is recorded the attempt is not
     * made again: after a crash it is recorded as failed with its outcome unknown, and the schedule goes on from it.
     */
    record DeliveryAttemptStarted(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, int attempt, Instant startedAt)
            implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.PENDING;
        }
    }

    record DeliverySucceeded(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, DeliveryAttempt attempt) implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.SUCCEEDED;
        }
    }

    record DeliveryFailed(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, DeliveryAttempt attempt, Instant nextAttemptAt)
            implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.FAILED;
        }
    }

    record DeliveryDeadLettered(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, DeliveryAttempt attempt)
            implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.DEAD_LETTER;
        }
    }

    /** Attempt {@code attempt} is due: back to pending, with what the dispatcher needs to make it. */
    record DeliveryRetryDue(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, int attempt, String payload, String fixedSignature)
            implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.PENDING;
        }
    }

    /** No further attempts (the webhook was deleted); the row stays failed. */
    record DeliveryStopped(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, String reason) implements DeliveryEvent {

        @Override
        public DeliveryStatus status() {
            return DeliveryStatus.FAILED;
        }
    }
}
