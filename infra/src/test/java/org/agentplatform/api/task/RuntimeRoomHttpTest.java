package org.agentplatform.api.task;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * At most {@code agent-platform.tasks.max-queued-turns} turns wait for the local runtime's turn workers: past that the
 * dispatchers wait, so the backlog stays in the event store, and the next turn is taken in once a worker is free. Here
 * the one worker is held by a turn whose chunk waits for its channel's lock, which the test holds.
 */
@DirtiesContext
@TestPropertySource(properties = {"agent-platform.tasks.turn-workers=1", "agent-platform.tasks.max-queued-turns=1"})
class RuntimeRoomHttpTest extends ApiTest {

    @Autowired
    private DataSource dataSource;

    @Autowired
    private MeterRegistry meters;

    @Test
    void aTurnPastTheQueuedLimitWaitsUnreadThenRunsOnceAWorkerIsFree() throws Exception {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "busy");
        // its first chunk comes a second after the start, on the worker, which then waits for the channel's lock
        String blocking = owner.task(agent, "hold the worker\n/echo deltas=2 take_ms=2000");
        String queued;
        String third;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            UUID channel = UUID.fromString(blocking);
            try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, channel.getMostSignificantBits() ^ channel.getLeastSignificantBits());
                lock.executeQuery().close();
            }
            await(() -> jdbc().queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", Integer.class),
                    waiting -> waiting > 0, "the worker waiting for the channel's lock");

            queued = owner.task(agent, "wait for the worker");
            await(() -> runtimeState(queued), "running"::equals, "the second turn taken in, waiting for the worker");
            third = owner.task(agent, "my turn");
            owner.awaitTask(agent, third, "running");
            // the task has started; its dispatcher waits for room, and the runtime has no record of the turn while it waits
            await(() -> meters.get("agent.platform.turns.waiting.for.room").gauge().value(), waiting -> waiting >= 1,
                    "the third turn's dispatcher waiting for room");
            assertThat(runtimeState(third)).as("not taken in while a turn waits for the worker").isNull();
            holder.rollback();
        }
        for (String task : new String[] {blocking, queued, third}) {
            owner.awaitTask(agent, task, "completed");
        }
    }

    private String runtimeState(String task) {
        return jdbc().queryForList("SELECT state FROM local_turn WHERE channel_id = ?::uuid", String.class, task).stream().findFirst()
                .orElse(null);
    }
}
