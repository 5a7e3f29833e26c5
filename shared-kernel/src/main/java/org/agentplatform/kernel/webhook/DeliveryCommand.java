package org.agentplatform.kernel.webhook;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Commands of the {@code WebhookDelivery} aggregate. */
public sealed interface DeliveryCommand {

    /**
     * A callback to deliver: {@code payload} is the exact body; {@code fireId} groups the deliveries of one
     * task status transition (at most five of them are attempted at a time).
     */
    /** {@code after}: the webhook's delivery made before this one (null for its first), which must settle before this is sent. */
    record CreateDelivery(
            @TargetAggregateIdentifier DeliveryId deliveryId,
            WebhookId webhookId,
            TaskId taskId,
            OwnerId ownerId,
            String payload,
            String fireId,
            DeliveryId after) implements DeliveryCommand {
    }

    /**
     * Attempt {@code number} is about to be sent: recorded before the callback leaves, so an attempt is sent at most once
     * whatever crashes (one started and never recorded ends as failed with its outcome unknown, and counts).
     */
    record StartDeliveryAttempt(@TargetAggregateIdentifier DeliveryId deliveryId, int number, Instant startedAt) implements DeliveryCommand {
    }

    /** How attempt {@code attempt.number()} went; only the attempt the delivery waits for is taken. */
    record RecordDeliveryAttempt(@TargetAggregateIdentifier DeliveryId deliveryId, DeliveryAttempt attempt) implements DeliveryCommand {
    }

    /** The next attempt of a failed delivery is due (the saga's deadline). */
    record RetryDelivery(@TargetAggregateIdentifier DeliveryId deliveryId) implements DeliveryCommand {
    }

    /** No further attempts: the webhook was deleted. */
    record StopDelivery(@TargetAggregateIdentifier DeliveryId deliveryId, String reason) implements DeliveryCommand {
    }

    /** A new pending delivery that re-sends this one's exact payload and signature header. */
    record RedeliverDelivery(@TargetAggregateIdentifier DeliveryId deliveryId, DeliveryId newDeliveryId) implements DeliveryCommand {
    }
}
