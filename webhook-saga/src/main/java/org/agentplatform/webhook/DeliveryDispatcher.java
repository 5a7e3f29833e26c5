package org.agentplatform.webhook;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.RecordDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.StartDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryAttemptStarted;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attempts each pending delivery: a new one once the webhook's delivery made before it has settled (succeeded, been
 * dead-lettered or stopped: a webhook's deliveries are sent one after the other, so a receiver gets a task's transitions
 * in order, also across crashes and nodes), a failed one when the saga says it is due. Attempts run off the processor's
 * thread (at most five of one fire at a time), to the webhook's current target, and their outcome is recorded as a
 * command. A delivery whose webhook was removed gets no new attempt. Every attempt is checked against the event store
 * first, the sweep's too ({@link #attemptIfStillDue}): one whose outcome is already recorded is not made again. And every
 * attempt is recorded as started before it is sent ({@code StartDeliveryAttempt}), which the delivery takes once: an
 * attempt is sent at most once, whatever crashes, so a receiver never gets more than the row's six; one started and
 * never recorded is recorded by the sweep as failed with its outcome unknown.
 */
@ProcessingGroup(DeliveryDispatcher.GROUP)
public class DeliveryDispatcher {

    public static final String GROUP = "webhook-dispatch";
    static final int PARALLEL_PER_FIRE = 5;
    private static final Logger log = LoggerFactory.getLogger(DeliveryDispatcher.class);

    private final CommandGateway commands;
    private final EventStore events;
    private final WebhookTargets targets;
    private final CallbackSender sender;
    private final ExecutorService attempts;
    private final Clock clock;
    private final FireLimiter limiter = new FireLimiter(PARALLEL_PER_FIRE);
    private final Set<DeliveryId> inFlight = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<WebhookId, CompletableFuture<Void>> queues = new ConcurrentHashMap<>();
    /** Deliveries this node holds until the delivery they wait for settles, by that delivery (a crash forgets them: the sweep finds them). */
    private final ConcurrentHashMap<DeliveryId, Pending> waiting = new ConcurrentHashMap<>();

    public DeliveryDispatcher(CommandGateway commands, EventStore events, WebhookTargets targets, CallbackSender sender,
            ExecutorService attempts, Clock clock) {
        this.commands = commands;
        this.events = events;
        this.targets = targets;
        this.sender = sender;
        this.attempts = attempts;
        this.clock = clock;
    }

    /**
     * What an attempt needs to know about its delivery.
     *
     * @param dueAt the sequence number of the delivery's event that made this attempt due
     */
    public record Pending(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, int attempt, String payload, String fixedSignature,
            String fire, long dueAt) {
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryCreated event, @SequenceNumber long sequence) {
        Pending first = new Pending(event.deliveryId(), event.webhookId(), event.taskId(), 1, event.payload(), event.fixedSignature(),
                event.fireId(), sequence);
        if (event.after() == null) {
            attempt(first);
            return;
        }
        // held first, then looked up: a settlement handled meanwhile on this node releases it, one read earlier the store does
        waiting.put(event.after(), first);
        if (settled(event.after())) {
            release(event.after());
        }
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryRetryDue event, @SequenceNumber long sequence) {
        attempt(new Pending(event.deliveryId(), event.webhookId(), event.taskId(), event.attempt(), event.payload(), event.fixedSignature(),
                "retry:" + event.deliveryId(), sequence));
    }

    @EventHandler
    @DisallowReplay
    void on(DeliverySucceeded event) {
        release(event.deliveryId());
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryDeadLettered event) {
        release(event.deliveryId());
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryStopped event) {
        release(event.deliveryId());
    }

    /** The delivery settled: the one of its webhook that waited for it (if this node holds it) is attempted. */
    private void release(DeliveryId settled) {
        Pending next = waiting.remove(settled);
        if (next != null) {
            attempt(next);
        }
    }

    /**
     * The sweep's way in, making the dispatcher's own checks: attempts the delivery when the event store says it waits for
     * an attempt (its last event made it due before {@code dueBefore}), the delivery it waits for, if any, has settled,
     * and no attempt of it is under way on this node. Answers whether it was attempted.
     */
    public boolean attemptIfStillDue(DeliveryId delivery, Instant dueBefore) {
        if (isInFlight(delivery)) {
            return false;
        }
        List<? extends DomainEventMessage<?>> history = events.readEvents(delivery.toString()).asStream().toList();
        if (history.isEmpty() || !history.getLast().getTimestamp().isBefore(dueBefore)) {
            return false;
        }
        DomainEventMessage<?> last = history.getLast();
        if (last.getPayload() instanceof DeliveryAttemptStarted started) {
            // started by a node that died before recording how it went: the attempt counts, its outcome unknown, and the
            // schedule goes on from it (sending it again would give the receiver more attempts than the row's six)
            record(new RecordDeliveryAttempt(started.deliveryId(), DeliveryAttempt.unknown(started.attempt(), started.startedAt())));
            return true;
        }
        Pending due = switch (last.getPayload()) {
            case DeliveryCreated created when created.after() == null || settled(created.after()) -> new Pending(created.deliveryId(),
                    created.webhookId(), created.taskId(), 1, created.payload(), created.fixedSignature(), created.fireId(),
                    last.getSequenceNumber());
            case DeliveryRetryDue retry -> new Pending(retry.deliveryId(), retry.webhookId(), retry.taskId(), retry.attempt(), retry.payload(),
                    retry.fixedSignature(), "retry:" + retry.deliveryId(), last.getSequenceNumber());
            default -> null;
        };
        return due != null && attempt(due);
    }

    /** Whether the delivery has succeeded, been dead-lettered or been stopped, as the event store says (one the store lacks holds nothing up). */
    private boolean settled(DeliveryId delivery) {
        List<? extends DomainEventMessage<?>> history = events.readEvents(delivery.toString()).asStream().toList();
        if (history.isEmpty()) {
            return true;
        }
        Object last = history.getLast().getPayload();
        return last instanceof DeliverySucceeded || last instanceof DeliveryDeadLettered || last instanceof DeliveryStopped;
    }

    /**
     * Attempts the delivery unless an attempt of it is already under way on this node; answers whether it did. A
     * webhook's attempts are made one after the other (a redelivery's beside its chain's), in the order they were asked.
     */
    public boolean attempt(Pending delivery) {
        if (!inFlight.add(delivery.deliveryId())) {
            return false;
        }
        queues.compute(delivery.webhookId(), (webhook, tail) -> {
            CompletableFuture<Void> previous = tail == null ? CompletableFuture.completedFuture(null) : tail;
            CompletableFuture<Void> next = previous.handle((done, failure) -> null).thenRunAsync(() -> run(delivery), attempts);
            next.whenComplete((done, failure) -> queues.remove(webhook, next));
            return next;
        });
        return true;
    }

    private void run(Pending delivery) {
        try {
            limiter.run(delivery.fire(), () -> send(delivery));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException failure) {
            log.atWarn().addKeyValue("delivery_id", delivery.deliveryId().toString()).setCause(failure)
                    .log("delivery attempt not recorded; the sweeper will attempt it again");
        } finally {
            inFlight.remove(delivery.deliveryId());
        }
    }

    /**
     * Sends the command; answers whether the delivery took it. A refusal means another node or an earlier try got there
     * first, which is fine.
     */
    private boolean record(Object command) {
        try {
            commands.sendAndWait(GenericCommandMessage.asCommandMessage(command).andMetaData(AuditMetadata.byProcess(GROUP)));
            return true;
        } catch (CommandExecutionException failure) {
            if (!(failure.getCause() instanceof CommandRefused)) {
                throw failure;
            }
            log.atDebug().addKeyValue("command", command.getClass().getSimpleName()).log(failure.getCause().getMessage());
            return false;
        }
    }

    /**
     * Whether the delivery recorded an outcome after the event that made this attempt due: then the event is being
     * handled again (a node died after attempting it and before its processor's checkpoint), and the attempt was made.
     * Read from the event store, which no projection lags behind.
     */
    private boolean overtaken(Pending delivery) {
        return events.readEvents(delivery.deliveryId().toString(), delivery.dueAt() + 1).asStream()
                .map(event -> event.getPayload())
                .anyMatch(payload -> payload instanceof DeliveryFailed || payload instanceof DeliverySucceeded
                        || payload instanceof DeliveryDeadLettered || payload instanceof DeliveryStopped);
    }

    public boolean isInFlight(DeliveryId delivery) {
        return inFlight.contains(delivery);
    }

    private void send(Pending delivery) {
        if (overtaken(delivery)) {
            log.atDebug().addKeyValue("delivery_id", delivery.deliveryId().toString()).addKeyValue("attempt", delivery.attempt())
                    .log("attempt already recorded (an event handled again after another node died); not sent twice");
            return;
        }
        Optional<WebhookTargets.Target> target = targets.current(delivery.webhookId());
        if (target.isEmpty()) {
            record(new StopDelivery(delivery.deliveryId(), "The webhook was deleted; no further attempts"));
            return;
        }
        // recorded as started before it is sent; refused when it was started before (an event handled again after a node
        // died) or the delivery moved on, and then not sent
        if (!record(new StartDeliveryAttempt(delivery.deliveryId(), delivery.attempt(), clock.instant()))) {
            return;
        }
        WebhookTargets.Target to = target.get();
        DeliveryAttempt attempt = sender.send(new CallbackSender.Callback(delivery.attempt(), to.url(), delivery.taskId().toString(),
                delivery.payload(), to.secret(), to.token(), delivery.fixedSignature()));
        record(new RecordDeliveryAttempt(delivery.deliveryId(), attempt));
        log.atInfo().addKeyValue("delivery_id", delivery.deliveryId().toString()).addKeyValue("attempt", attempt.number())
                .addKeyValue("status", attempt.responseStatus()).addKeyValue("succeeded", attempt.succeeded()).log("webhook attempt");
    }
}
