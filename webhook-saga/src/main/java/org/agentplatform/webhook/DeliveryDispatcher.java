package org.agentplatform.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.RecordDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.kernel.error.CommandRefused;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attempts each pending delivery: a new one at once, a failed one when the saga says it is due, each webhook's in the
 * order they became due ({@link DueOrder}). Attempts
 * run off the processor's thread (at most five of one fire at a time), to the webhook's current target,
 * and their outcome is recorded as a command. A delivery whose webhook was removed gets no new attempt.
 */
@ProcessingGroup(DeliveryDispatcher.GROUP)
public class DeliveryDispatcher {

    public static final String GROUP = "webhook-dispatch";
    static final int PARALLEL_PER_FIRE = 5;
    /** How long past its due time a retry that has not arrived may hold the later attempts of its webhook. */
    static final Duration ORDER_PATIENCE = Duration.ofSeconds(30);
    private static final Logger log = LoggerFactory.getLogger(DeliveryDispatcher.class);

    private final CommandGateway commands;
    private final EventStore events;
    private final WebhookTargets targets;
    private final CallbackSender sender;
    private final ExecutorService attempts;
    private final FireLimiter limiter = new FireLimiter(PARALLEL_PER_FIRE);
    private final Set<DeliveryId> inFlight = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<WebhookId, CompletableFuture<Void>> queues = new ConcurrentHashMap<>();
    private final Clock clock;
    private final DueOrder<Pending> order;
    /** When the next timed look at held attempts happens; null when none is scheduled. */
    private final AtomicReference<Instant> check = new AtomicReference<>();

    public DeliveryDispatcher(CommandGateway commands, EventStore events, WebhookTargets targets, CallbackSender sender,
            ExecutorService attempts, Clock clock) {
        this.commands = commands;
        this.events = events;
        this.targets = targets;
        this.sender = sender;
        this.attempts = attempts;
        this.clock = clock;
        this.order = new DueOrder<>(ORDER_PATIENCE, clock);
    }

    /**
     * What an attempt needs to know about its delivery.
     *
     * @param dueAt the sequence number of the delivery's event that made this attempt due, or {@link #SWEPT}
     */
    public record Pending(DeliveryId deliveryId, WebhookId webhookId, TaskId taskId, int attempt, String payload, String fixedSignature,
            String fire, long dueAt) {

        /** An attempt the sweeper makes again: its delivery is known to wait for it. */
        public static final long SWEPT = -1;
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryCreated event, @Timestamp Instant at, @SequenceNumber long sequence) {
        inOrder(order.due(event.webhookId(), event.deliveryId(), new Pending(event.deliveryId(), event.webhookId(), event.taskId(), 1,
                event.payload(), event.fixedSignature(), event.fireId(), sequence), at));
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryRetryDue event, @Timestamp Instant at, @SequenceNumber long sequence) {
        inOrder(order.due(event.webhookId(), event.deliveryId(), new Pending(event.deliveryId(), event.webhookId(), event.taskId(),
                event.attempt(), event.payload(), event.fixedSignature(), "retry:" + event.deliveryId(), sequence), at));
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryFailed event) {
        order.failed(event.webhookId(), event.deliveryId(), event.nextAttemptAt());
    }

    @EventHandler
    @DisallowReplay
    void on(DeliverySucceeded event) {
        inOrder(order.settled(event.webhookId(), event.deliveryId()));
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryDeadLettered event) {
        inOrder(order.settled(event.webhookId(), event.deliveryId()));
    }

    @EventHandler
    @DisallowReplay
    void on(DeliveryStopped event) {
        inOrder(order.settled(event.webhookId(), event.deliveryId()));
    }

    /** Attempts what is due, in order; when some attempt waits for an earlier retry, looks again once its patience is spent. */
    private void inOrder(List<Pending> due) {
        due.forEach(this::attempt);
        order.nextCheck().ifPresent(this::checkAt);
    }

    /** One timed look at a time: a later one is not scheduled while an earlier one is pending; each schedules the next. */
    private void checkAt(Instant at) {
        Instant pending = check.get();
        if ((pending != null && !pending.isAfter(at)) || !check.compareAndSet(pending, at)) {
            return;
        }
        CompletableFuture.delayedExecutor(Math.max(0, Duration.between(clock.instant(), at).toMillis()) + 1, TimeUnit.MILLISECONDS, attempts)
                .execute(() -> {
                    check.compareAndSet(at, null);
                    inOrder(order.overdue());
                });
    }

    /**
     * Attempts the delivery unless an attempt of it is already under way on this node (the sweeper calls this
     * too). A webhook's attempts are made one after the other, in the order they became due, so a receiver
     * that answers gets a task's transitions in order.
     */
    public void attempt(Pending delivery) {
        if (!inFlight.add(delivery.deliveryId())) {
            return;
        }
        queues.compute(delivery.webhookId(), (webhook, tail) -> {
            CompletableFuture<Void> previous = tail == null ? CompletableFuture.completedFuture(null) : tail;
            CompletableFuture<Void> next = previous.handle((done, failure) -> null).thenRunAsync(() -> run(delivery), attempts);
            next.whenComplete((done, failure) -> queues.remove(webhook, next));
            return next;
        });
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

    /** Sends the command; a refusal means another node or an earlier try got there first, which is fine. */
    private void record(Object command) {
        try {
            commands.sendAndWait(GenericCommandMessage.asCommandMessage(command).andMetaData(AuditMetadata.byProcess(GROUP)));
        } catch (CommandExecutionException failure) {
            if (!(failure.getCause() instanceof CommandRefused)) {
                throw failure;
            }
            log.atDebug().addKeyValue("command", command.getClass().getSimpleName()).log(failure.getCause().getMessage());
        }
    }

    /**
     * Whether the delivery recorded an outcome after the event that made this attempt due: then the event is being
     * handled again (a node died after attempting it and before its processor's checkpoint), and the attempt was made.
     * Read from the event store, which no projection lags behind.
     */
    private boolean overtaken(Pending delivery) {
        if (delivery.dueAt() == Pending.SWEPT) {
            return false;
        }
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
        WebhookTargets.Target to = target.get();
        DeliveryAttempt attempt = sender.send(new CallbackSender.Callback(delivery.attempt(), to.url(), delivery.taskId().toString(),
                delivery.payload(), to.secret(), to.token(), delivery.fixedSignature()));
        record(new RecordDeliveryAttempt(delivery.deliveryId(), attempt));
        log.atInfo().addKeyValue("delivery_id", delivery.deliveryId().toString()).addKeyValue("attempt", attempt.number())
                .addKeyValue("status", attempt.responseStatus()).addKeyValue("succeeded", attempt.succeeded()).log("webhook attempt");
    }
}
