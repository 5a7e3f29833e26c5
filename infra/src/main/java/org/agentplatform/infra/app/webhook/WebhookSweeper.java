package org.agentplatform.infra.app.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.webhook.DeliveryDispatcher;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Recovers what a crash can lose between attempts: a pending delivery whose attempt never got recorded is attempted
 * again (receivers dedupe: delivery is at least once), and a failed one whose retry is long overdue (a lost deadline) is
 * made due. The audit rows only point at candidates, and may lag far behind under a flood: the dispatcher decides from
 * the event store ({@link DeliveryDispatcher#attemptIfStillDue}), so a delivery that succeeded is never sent again.
 */
public final class WebhookSweeper {

    /** Longer than an attempt can take, so an attempt under way on another node is left alone. */
    private static final Duration STUCK = Duration.ofSeconds(40);
    private static final Duration OVERDUE = Duration.ofMinutes(1);
    /** Pending rows not waiting for another: a first delivery, or one whose predecessor settled (or was stopped). */
    private static final String PENDING = "SELECT d.id FROM delivery_view d WHERE d.status = 'pending' AND d.updated_at < ?"
            + " AND (d.after_id IS NULL OR EXISTS (SELECT 1 FROM delivery_view p WHERE p.id = d.after_id"
            + " AND (p.status IN ('succeeded', 'dead_letter') OR (p.status = 'failed' AND p.next_attempt_at IS NULL))))";

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

    /** One sweep; answers how many pending deliveries it attempted again. */
    public int sweep() {
        Instant stuck = clock.instant().minus(STUCK);
        int attempted = 0;
        for (UUID delivery : jdbc.queryForList(PENDING, UUID.class, at(stuck))) {
            if (dispatcher.attemptIfStillDue(new DeliveryId(delivery), stuck)) {
                attempted++;
            }
        }
        jdbc.queryForList("SELECT id FROM delivery_view WHERE status = 'failed' AND next_attempt_at < ?", UUID.class,
                        at(clock.instant().minus(OVERDUE)))
                .forEach(delivery -> ProcessCommands.send(commands, new RetryDelivery(new DeliveryId(delivery)), "webhook-sweeper"));
        return attempted;
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
