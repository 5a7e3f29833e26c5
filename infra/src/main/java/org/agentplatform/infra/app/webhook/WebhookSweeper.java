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
 * Recovers what a crash can lose between attempts: a pending delivery whose attempt was never made is attempted, one
 * whose attempt started and never got recorded is recorded as failed with its outcome unknown (the schedule goes on from
 * it: delivery is at least once, and never more than six attempts), and a failed one whose retry is long overdue (a lost deadline) is
 * made due. The audit rows only point at candidates, and may lag far behind under a flood: the dispatcher decides from
 * the event store ({@link DeliveryDispatcher#attemptIfStillDue}), so a delivery that succeeded is never sent again.
 */
public final class WebhookSweeper {

    private static final Duration OVERDUE = Duration.ofMinutes(1);
    /** Pending rows not waiting for another: a first delivery, or one whose predecessor settled (or was stopped). */
    private static final String PENDING = "SELECT d.id FROM delivery_view d WHERE d.status = 'pending' AND d.updated_at < ?"
            + " AND (d.after_id IS NULL OR EXISTS (SELECT 1 FROM delivery_view p WHERE p.id = d.after_id"
            + " AND (p.status IN ('succeeded', 'dead_letter') OR (p.status = 'failed' AND p.next_attempt_at IS NULL))))";

    private final JdbcTemplate jdbc;
    private final DeliveryDispatcher dispatcher;
    private final CommandGateway commands;
    private final Clock clock;
    private final Duration stuck;

    /** @param stuck how long after its last event a pending delivery counts as lost ({@link #stuckAfter}) */
    WebhookSweeper(JdbcTemplate jdbc, DeliveryDispatcher dispatcher, CommandGateway commands, Clock clock, Duration stuck) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.commands = commands;
        this.clock = clock;
        this.stuck = stuck;
    }

    /**
     * Longer than an attempt can take (twice its timeout, and 20 s for recording it under load; 40 s by default), so an
     * attempt under way on another node is left alone.
     */
    static Duration stuckAfter(Duration attemptTimeout) {
        return attemptTimeout.multipliedBy(2).plusSeconds(20);
    }

    /** One sweep; answers how many pending deliveries it attempted again. */
    public int sweep() {
        Instant lostBefore = clock.instant().minus(stuck);
        int attempted = 0;
        for (UUID delivery : jdbc.queryForList(PENDING, UUID.class, at(lostBefore))) {
            if (dispatcher.attemptIfStillDue(new DeliveryId(delivery), lostBefore)) {
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
