package org.agentplatform.query.webhook;

import java.time.Instant;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryEvent;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookCredentialsChanged;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRegistered;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.channel.ChannelLog;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/** Webhook events into {@code webhook_view}; delivery events into the audit rows of {@code delivery_view}. */
@ProcessingGroup(WebhookProjection.GROUP)
public class WebhookProjection {

    public static final String GROUP = "webhook-projection";
    public static final String RENDERER = "openapi";

    private final JdbcTemplate jdbc;

    public WebhookProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A registration made again (the same webhook id) renews the row but keeps its place in the list: its first list offset. */
    @EventHandler
    void on(WebhookRegistered event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        jdbc.update("INSERT INTO webhook_view (id, task_id, owner_id, url, has_secret, has_token, removed, version, created_at, updated_at,"
                        + " list_offset) VALUES (?, ?, ?, ?, ?, ?, FALSE, ?, ?, ?, ?)"
                        + " ON CONFLICT (id) DO UPDATE SET has_secret = EXCLUDED.has_secret,"
                        + " has_token = EXCLUDED.has_token, removed = FALSE, version = EXCLUDED.version, created_at = EXCLUDED.created_at,"
                        + " updated_at = EXCLUDED.updated_at WHERE webhook_view.version < EXCLUDED.version",
                event.webhookId().value(), event.taskId().value(), event.ownerId().value(), event.url(), event.secretRef() != null,
                event.tokenRef() != null, sequence, SqlTime.of(at), SqlTime.of(at), ChannelLog.globalIndex(index, token));
        ReadModelWaits.changed(jdbc, event.webhookId());
    }

    @EventHandler
    void on(WebhookCredentialsChanged event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE webhook_view SET has_secret = ?, has_token = ?, version = ?, updated_at = ? WHERE id = ? AND version < ?",
                event.secretRef() != null, event.tokenRef() != null, sequence, SqlTime.of(at), event.webhookId().value(), sequence);
        ReadModelWaits.changed(jdbc, event.webhookId());
    }

    @EventHandler
    void on(WebhookRemoved event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE webhook_view SET removed = TRUE, version = ?, updated_at = ? WHERE id = ? AND version < ?", sequence,
                SqlTime.of(at), event.webhookId().value(), sequence);
        ReadModelWaits.changed(jdbc, event.webhookId());
    }

    @EventHandler
    void on(DeliveryCreated event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("INSERT INTO delivery_view (id, webhook_id, task_id, owner_id, renderer, status, attempt_num, last_response_status,"
                        + " last_error, redelivery_of, after_id, payload, fixed_signature, version, created_at, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, 0, 0, '', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.deliveryId().value(), event.webhookId().value(), event.taskId().value(), event.ownerId().value(), RENDERER,
                event.status().wireName(), event.redeliveryOf() == null ? null : event.redeliveryOf().value(),
                event.after() == null ? null : event.after().value(), event.payload(), event.fixedSignature(), sequence, SqlTime.of(at),
                SqlTime.of(at));
        ReadModelWaits.changed(jdbc, event.deliveryId());
    }

    @EventHandler
    void on(DeliverySucceeded event, @SequenceNumber long sequence, @Timestamp Instant at) {
        attempted(event, event.attempt(), null, at, sequence, at);
    }

    @EventHandler
    void on(DeliveryFailed event, @SequenceNumber long sequence, @Timestamp Instant at) {
        attempted(event, event.attempt(), event.nextAttemptAt(), null, sequence, at);
    }

    @EventHandler
    void on(DeliveryDeadLettered event, @SequenceNumber long sequence, @Timestamp Instant at) {
        attempted(event, event.attempt(), null, at, sequence, at);
    }

    @EventHandler
    void on(DeliveryRetryDue event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE delivery_view SET status = ?, next_attempt_at = NULL, version = ?, updated_at = ? WHERE id = ? AND version < ?",
                event.status().wireName(), sequence, SqlTime.of(at), event.deliveryId().value(), sequence);
    }

    @EventHandler
    void on(DeliveryStopped event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE delivery_view SET status = ?, next_attempt_at = NULL, last_error = ?, version = ?, updated_at = ?"
                        + " WHERE id = ? AND version < ?",
                event.status().wireName(), event.reason(), sequence, SqlTime.of(at), event.deliveryId().value(), sequence);
    }

    private void attempted(DeliveryEvent event, DeliveryAttempt attempt, Instant next, Instant completed, long sequence, Instant at) {
        jdbc.update("UPDATE delivery_view SET status = ?, attempt_num = ?, last_response_status = ?, last_error = ?, next_attempt_at = ?,"
                        + " last_attempted_at = ?, completed_at = ?, duration_ms = ?, response_snippet = ?, version = ?, updated_at = ?"
                        + " WHERE id = ? AND version < ?",
                event.status().wireName(), attempt.number(), attempt.responseStatus(), attempt.error() == null ? "" : attempt.error(),
                SqlTime.of(next), SqlTime.of(attempt.attemptedAt()), SqlTime.of(completed), attempt.durationMs(), attempt.responseSnippet(),
                sequence, SqlTime.of(at), event.deliveryId().value(), sequence);
    }
}
