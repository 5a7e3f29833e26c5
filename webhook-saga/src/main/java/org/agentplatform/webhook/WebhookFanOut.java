package org.agentplatform.webhook;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.webhook.DeliveryCommand.CreateDelivery;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookCredentialsChanged;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRegistered;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every task status transition becomes one delivery per webhook registered at that moment, with the
 * {@code openapi} payload, naming the webhook's delivery made before it (sent only once that one has settled, so a
 * receiver gets a task's transitions in order). Sequenced per task ({@link TaskSequencing}); its subscription table, the record of
 * what was fanned out and the deliveries it creates commit in its processor's transaction, so a replay or
 * a restart never creates a delivery twice (the delivery id is also derived from event and webhook).
 * Most tasks have no webhook: which tasks of a processor batch have one is asked once for the batch,
 * and asked again after a subscription changed within it.
 */
@ProcessingGroup(WebhookFanOut.GROUP)
public class WebhookFanOut {

    public static final String GROUP = "webhook-fanout";
    /** The unit-of-work resource holding the batch's tasks that have an active webhook. */
    private static final String WATCHED = WebhookFanOut.class.getName() + ".watched";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;

    public WebhookFanOut(JdbcTemplate jdbc, CommandGateway commands) {
        this.jdbc = jdbc;
        this.commands = commands;
    }

    @EventHandler
    void on(WebhookRegistered event, @Timestamp Instant at) {
        forgetWatched();
        jdbc.update("INSERT INTO webhook_subscription (webhook_id, task_id, owner_id, url, secret_ref, token_ref, active, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, TRUE, ?) ON CONFLICT (webhook_id) DO UPDATE SET secret_ref = EXCLUDED.secret_ref,"
                        + " token_ref = EXCLUDED.token_ref, active = TRUE, updated_at = EXCLUDED.updated_at",
                event.webhookId().value(), event.taskId().value(), event.ownerId().value(), event.url(), event.secretRef(), event.tokenRef(),
                OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
    }

    @EventHandler
    void on(WebhookCredentialsChanged event, @Timestamp Instant at) {
        forgetWatched();
        jdbc.update("UPDATE webhook_subscription SET secret_ref = ?, token_ref = ?, updated_at = ? WHERE webhook_id = ?",
                event.secretRef(), event.tokenRef(), OffsetDateTime.ofInstant(at, ZoneOffset.UTC), event.webhookId().value());
    }

    @EventHandler
    void on(WebhookRemoved event, @Timestamp Instant at) {
        forgetWatched();
        jdbc.update("UPDATE webhook_subscription SET active = FALSE, updated_at = ? WHERE webhook_id = ?", OffsetDateTime.ofInstant(at, ZoneOffset.UTC),
                event.webhookId().value());
    }

    @EventHandler
    void on(TaskEvent event, @MessageIdentifier String eventId, @Timestamp Instant at) {
        // a turn handed over that waits for a worker leaves the task queued: no transition to call back about
        if (!event.changesStatus() || !watched(event.taskId().value())) {
            return;
        }
        List<Subscription> webhooks = jdbc.query("SELECT webhook_id, last_delivery_id FROM webhook_subscription WHERE task_id = ? AND active"
                + " ORDER BY url", (row, index) -> new Subscription(row.getObject("webhook_id", UUID.class),
                row.getObject("last_delivery_id", UUID.class)), event.taskId().value());
        if (webhooks.isEmpty()) {
            return;
        }
        String payload = payload(event, at);
        for (Subscription webhook : webhooks) {
            int fresh = jdbc.update("INSERT INTO webhook_fanout (event_id, webhook_id) VALUES (?, ?) ON CONFLICT DO NOTHING", eventId,
                    webhook.id());
            if (fresh == 1) {
                WebhookId id = new WebhookId(webhook.id());
                DeliveryId delivery = DeliveryId.of(eventId, id);
                // joins this processor's transaction: the delivery exists exactly when the fan-out record does
                commands.sendAndWait(new CreateDelivery(delivery, id, event.taskId(), event.task().ownerId(), payload, eventId,
                        webhook.lastDelivery() == null ? null : new DeliveryId(webhook.lastDelivery())));
                jdbc.update("UPDATE webhook_subscription SET last_delivery_id = ? WHERE webhook_id = ?", delivery.value(), webhook.id());
            }
        }
    }

    /** An active webhook of the task, and the delivery last made for it (the next one waits for it). */
    private record Subscription(UUID id, UUID lastDelivery) {
    }

    /** Whether the task has an active webhook, from one query for the whole batch when the event is handled in one. */
    private boolean watched(UUID task) {
        if (CurrentUnitOfWork.isStarted() && CurrentUnitOfWork.get() instanceof BatchingUnitOfWork<?> batch) {
            Set<UUID> watched = batch.getOrComputeResource(WATCHED, key -> tasksWithWebhooks(batch.getMessages().stream()
                    .filter(message -> TaskEvent.class.isAssignableFrom(message.getPayloadType()))
                    .map(message -> ((TaskEvent) message.getPayload()).taskId().value())
                    .collect(Collectors.toSet())));
            return watched.contains(task);
        }
        return tasksWithWebhooks(Set.of(task)).contains(task);
    }

    private Set<UUID> tasksWithWebhooks(Set<UUID> tasks) {
        return Set.copyOf(jdbc.queryForList("SELECT DISTINCT task_id FROM webhook_subscription WHERE task_id = ANY(?::uuid[]) AND active",
                UUID.class, (Object) tasks.toArray(UUID[]::new)));
    }

    /** A subscription changed: the batch's answer is asked again by the next task event. */
    private static void forgetWatched() {
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().resources().remove(WATCHED);
        }
    }

    /** The {@code openapi} callback payload, the same shape as the task stream's {@code task_status} events. */
    static String payload(TaskEvent event, Instant at) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("type", "task_status");
        payload.put("task_id", event.taskId().toString());
        payload.put("context_id", event.task().contextId());
        payload.put("status", event.status().wireName());
        payload.put("final", event.status().isTerminal());
        payload.put("timestamp", at.toString());
        return JSON.writeValueAsString(payload);
    }
}
