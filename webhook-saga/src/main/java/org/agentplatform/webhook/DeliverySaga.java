package org.agentplatform.webhook;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;

/**
 * The retry schedule of one delivery: each failed attempt schedules a persistent deadline at its
 * {@code next_attempt_at} (db-scheduler, so a restart between attempts still retries on time); when it
 * fires, the delivery is due again. It ends when the delivery succeeds, is dead-lettered or is stopped
 * because its webhook was deleted (a deleted webhook's waiting retry is cancelled at once).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public class DeliverySaga {

    static final String RETRY_DEADLINE = "delivery-retry";
    static final String DELIVERY = "deliveryId";
    static final String WEBHOOK = "webhookId";
    static final String WEBHOOK_DELETED = "The webhook was deleted; no further attempts";

    private DeliveryId deliveryId;
    private String retryDeadlineId;
    private boolean webhookRemoved;

    @StartSaga
    @SagaEventHandler(associationProperty = DELIVERY)
    void on(DeliveryCreated event) {
        deliveryId = event.deliveryId();
        SagaLifecycle.associateWith(WEBHOOK, event.webhookId().toString());
    }

    @SagaEventHandler(associationProperty = DELIVERY)
    void on(DeliveryFailed event, DeadlineManager deadlines, CommandGateway commands) {
        if (webhookRemoved) {
            commands.send(new StopDelivery(deliveryId, WEBHOOK_DELETED));
            return;
        }
        retryDeadlineId = deadlines.schedule(event.nextAttemptAt(), RETRY_DEADLINE, deliveryId.toString());
    }

    /**
     * The deadline's payload is the delivery (a handler's first parameter is its payload, resources follow). Waits
     * for the command, so a failure leaves the deadline to be retried; a refusal (already stopped) is final.
     */
    @DeadlineHandler(deadlineName = RETRY_DEADLINE)
    void retryDue(String delivery, CommandGateway commands) {
        retryDeadlineId = null;
        try {
            commands.sendAndWait(new RetryDelivery(DeliveryId.of(delivery)));
        } catch (CommandExecutionException refused) {
            if (!(refused.getCause() instanceof CommandRefused)) {
                throw refused;
            }
        }
    }

    @SagaEventHandler(associationProperty = WEBHOOK)
    void on(WebhookRemoved event, DeadlineManager deadlines, CommandGateway commands) {
        webhookRemoved = true;
        if (retryDeadlineId != null) {
            deadlines.cancelSchedule(RETRY_DEADLINE, retryDeadlineId);
            retryDeadlineId = null;
            commands.send(new StopDelivery(deliveryId, WEBHOOK_DELETED));
        }
    }

    @EndSaga
    @SagaEventHandler(associationProperty = DELIVERY)
    void on(DeliverySucceeded event) {
        // delivered: nothing more to schedule
    }

    @EndSaga
    @SagaEventHandler(associationProperty = DELIVERY)
    void on(DeliveryDeadLettered event) {
        // the schedule is exhausted: a redeliver is a new delivery with a saga of its own
    }

    @EndSaga
    @SagaEventHandler(associationProperty = DELIVERY)
    void on(DeliveryStopped event, DeadlineManager deadlines) {
        if (retryDeadlineId != null) {
            deadlines.cancelSchedule(RETRY_DEADLINE, retryDeadlineId);
        }
    }
}
