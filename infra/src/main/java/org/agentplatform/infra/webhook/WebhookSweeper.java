package org.agentplatform.infra.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.webhook.DeliveryDispatcher;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Recovers what a crash can lose between attempts: a pending delivery whose attempt never got recorded is
 * attempted again (receivers dedupe: delivery is at least once), and a failed one whose retry is long
 * overdue (a lost deadline) is made due. Both are idempotent.
 */
final class WebhookSweeper {

    /** Longer than an attempt can take, so an attempt under way on another node is left alone. */
    private static final Duration STUCK = Duration.ofSeconds(40);
    private static final Duration OVERDUE = Duration.ofMinutes(1);

    private final JdbcTemplate jdbc;
    private final DeliveryDispatcher dispatcher;
    private final CommandGateway commands;
    private final Clock clock;

    WebhookSweeper(JdbcTemplate jdbc, DeliveryDispatcher dispatcher, CommandGateway commands, Clock clock) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.commands = commands;
        this.clock = clock;
    }

    void sweep() {
        jdbc.query("SELECT id, webhook_id, task_id, attempt_num, payload, fixed_signature FROM delivery_view"
                + " WHERE status = 'pending' AND updated_at < ?", row -> {
                    DeliveryId delivery = new DeliveryId(row.getObject("id", UUID.class));
                    if (!dispatcher.isInFlight(delivery)) {
                        dispatcher.attempt(new DeliveryDispatcher.Pending(delivery, new WebhookId(row.getObject("webhook_id", UUID.class)),
                                new TaskId(row.getObject("task_id", UUID.class)), row.getInt("attempt_num") + 1, row.getString("payload"),
                                row.getString("fixed_signature"), "sweep:" + delivery, DeliveryDispatcher.Pending.SWEPT));
                    }
                }, ago(STUCK));
        jdbc.queryForList("SELECT id FROM delivery_view WHERE status = 'failed' AND next_attempt_at < ?", UUID.class, ago(OVERDUE))
                .forEach(delivery -> ProcessCommands.send(commands, new RetryDelivery(new DeliveryId(delivery)), "webhook-sweeper"));
    }

    private OffsetDateTime ago(Duration duration) {
        return OffsetDateTime.ofInstant(clock.instant().minus(duration), ZoneOffset.UTC);
    }
}
