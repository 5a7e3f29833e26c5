package org.agentplatform.command.webhook;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.CreateDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.RecordDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.RedeliverDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.StartDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryAttemptStarted;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryEvent;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.DeliveryStatus;
import org.agentplatform.kernel.webhook.RetrySchedule;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * One callback to one webhook (see {@link DeliveryStatus}): each attempt started (once) and then recorded, failed with
 * the next attempt scheduled by {@link RetrySchedule}, due again, and dead-lettered when the schedule is exhausted. A
 * redeliver of a failed or dead-lettered delivery creates a new one with the same payload and the signature header last
 * sent; the source stays as it is.
 */
class WebhookDelivery {

    private DeliveryId id;
    private WebhookId webhookId;
    private TaskId taskId;
    private OwnerId ownerId;
    private String payload;
    private String fixedSignature;
    private DeliveryStatus status;
    private int attempts;
    /** The attempt started last (0: none): until its outcome is recorded it is not started again. */
    private int started;
    private boolean stopped;

    protected WebhookDelivery() {
        // for event sourcing
    }

    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    WebhookDelivery(CreateDelivery command) {
        apply(new DeliveryCreated(command.deliveryId(), command.webhookId(), command.taskId(), command.ownerId(), command.payload(), null,
                null, command.fireId(), command.after()));
    }

    /**
     * A redelivery: created by its source (see {@link #handle(RedeliverDelivery)}), the same payload bytes, signed
     * afresh at each of its attempts (a new {@code t=}), so a receiver's timestamp tolerance accepts it however old
     * its source is.
     */
    private WebhookDelivery(DeliveryId newId, WebhookDelivery source) {
        apply(new DeliveryCreated(newId, source.webhookId, source.taskId, source.ownerId, source.payload, null, source.id,
                "redeliver:" + newId, null));
    }

    /** Attempt {@code number} may be sent: it is the one the pending delivery waits for, and it was not started before. */
    @CommandHandler
    void handle(StartDeliveryAttempt command) {
        if (stopped || status != DeliveryStatus.PENDING) {
            throw CommandRefused.conflict("Delivery " + id + " is " + (stopped ? "stopped" : status.wireName()) + " after " + attempts
                    + " attempts; no attempt starts");
        }
        if (command.number() != attempts + 1) {
            throw CommandRefused.conflict("Delivery " + id + " is pending after " + attempts + " attempts; attempt " + command.number()
                    + " is not the one it waits for");
        }
        if (started == command.number()) {
            throw CommandRefused.conflict("Delivery " + id + " attempt " + command.number() + " was started already; it is not sent twice");
        }
        apply(new DeliveryAttemptStarted(id, webhookId, taskId, command.number(), command.startedAt()));
    }

    @CommandHandler
    void handle(RecordDeliveryAttempt command, RetrySchedule schedule) {
        DeliveryAttempt attempt = command.attempt();
        if (attempt.number() != attempts + 1) {
            throw CommandRefused.conflict("Delivery " + id + " is " + status.wireName() + " after " + attempts
                    + " attempts; attempt " + attempt.number() + " is not the one it waits for");
        }
        DeliveryEvent outcome = attempt.succeeded() ? new DeliverySucceeded(id, webhookId, taskId, attempt)
                : schedule.delayAfter(attempt.number())
                        .<DeliveryEvent>map(delay -> new DeliveryFailed(id, webhookId, taskId, attempt, attempt.attemptedAt().plus(delay)))
                        .orElseGet(() -> new DeliveryDeadLettered(id, webhookId, taskId, attempt));
        requireTransition(outcome.status(), "record attempt " + attempt.number());
        apply(outcome);
    }

    @CommandHandler
    void handle(RetryDelivery command) {
        if (stopped) {
            throw CommandRefused.conflict("Delivery " + id + " was stopped; it is not attempted again");
        }
        requireTransition(DeliveryStatus.PENDING, "attempt it again");
        apply(new DeliveryRetryDue(id, webhookId, taskId, attempts + 1, payload, fixedSignature));
    }

    @CommandHandler
    void handle(StopDelivery command) {
        if (stopped || status.isTerminal()) {
            throw CommandRefused.conflict("Delivery " + id + " is " + (stopped ? "stopped already" : status.wireName())
                    + "; there is nothing to stop");
        }
        apply(new DeliveryStopped(id, webhookId, taskId, command.reason()));
    }

    /** The change is one {@link DeliveryStatus} allows from where the delivery stands, or the command is refused. */
    private void requireTransition(DeliveryStatus next, String action) {
        if (!status.canBecome(next)) {
            throw CommandRefused.conflict("Delivery " + id + " is " + status.wireName() + " after " + attempts + " attempts; cannot "
                    + action);
        }
    }

    @CommandHandler
    DeliveryId handle(RedeliverDelivery command) throws Exception {
        if (!status.canBeRedelivered()) {
            throw CommandRefused.conflict("Delivery " + id + " is " + status.wireName()
                    + "; only a failed or dead-lettered delivery can be redelivered");
        }
        AggregateLifecycle.createNew(WebhookDelivery.class, () -> new WebhookDelivery(command.newDeliveryId(), this));
        return command.newDeliveryId();
    }

    @EventSourcingHandler
    void on(DeliveryEvent event) {
        switch (event) {
            case DeliveryCreated created -> {
                id = created.deliveryId();
                webhookId = created.webhookId();
                taskId = created.taskId();
                ownerId = created.ownerId();
                payload = created.payload();
                fixedSignature = created.fixedSignature();
            }
            case DeliveryAttemptStarted attempt -> started = attempt.attempt();
            case DeliverySucceeded succeeded -> attempted(succeeded.attempt());
            case DeliveryFailed failed -> attempted(failed.attempt());
            case DeliveryDeadLettered deadLettered -> attempted(deadLettered.attempt());
            case DeliveryRetryDue due -> {
                // back to pending; the attempt count moves when the attempt is recorded
            }
            case DeliveryStopped stop -> stopped = true;
        }
        status = event.status();
    }

    private void attempted(DeliveryAttempt attempt) {
        attempts = attempt.number();
    }
}
