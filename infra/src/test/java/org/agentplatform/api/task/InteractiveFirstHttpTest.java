package org.agentplatform.api.task;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.HeldChannel;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The turns a node has claimed wait for its workers most urgent first: a conversation's message (interactive) claimed
 * behind another owner's tasks begins before them. The one turn worker is held by a turn whose chunk waits for its
 * channel's lock, which the test holds; meanwhile two tasks and then the message are claimed (there is room for four), and
 * once the lock is let go the worker's next turn is the message.
 */
@DirtiesContext
@TestPropertySource(properties = {"agent-platform.tasks.turn-workers=1", "agent-platform.tasks.max-queued-turns=4"})
class InteractiveFirstHttpTest extends ApiTest {

    @Autowired
    private DataSource dataSource;

    @Autowired
    private MeterRegistry meters;

    @Test
    void aMessageClaimedBehindTasksBeginsBeforeThem() throws Exception {
        PlatformClient batch = stranger();
        PlatformClient talking = stranger();
        String agent = batch.createAgent(batch.runningInstance("linux"), "batch");
        String theirs = talking.createAgent(talking.runningInstance("linux"), "talking");
        String conversation = talking.conversation(theirs);
        // its first chunk comes on the worker, which then waits for the channel's lock
        String blocking = batch.task(agent, HeldChannel.HOLDING_TURN);
        String first;
        String second;
        try (HeldChannel held = HeldChannel.holdingItsWorker(dataSource, jdbc(), blocking)) {
            first = batch.task(agent, "first");
            second = batch.task(agent, "second");
            await(() -> runtimeState(second), "running"::equals, "the second task claimed");
            talking.say(theirs, conversation, "a question");
            await(() -> runtimeState(conversation), "running"::equals, "the message claimed behind the tasks");
            assertThat(runtimeState(first)).as("claimed, waiting for the worker").isEqualTo("running");
            // claimed in the table is not yet in the node's queue: the worker is let go once all three wait there
            await(() -> meters.get("agent.platform.turns.claimed.waiting").gauge().value(), waiting -> waiting == 3,
                    "the three turns waiting for the worker");
        }
        talking.awaitTurn(theirs, conversation, 1, "completed");
        batch.awaitTask(agent, first, "completed");
        batch.awaitTask(agent, second, "completed");

        assertThat(claimedAt(conversation)).as("the message was claimed after the tasks").isAfter(claimedAt(second));
        assertThat(beganAt(conversation)).as("the message began first once the worker was free").isBefore(beganAt(first))
                .isBefore(beganAt(second));
    }

    /**
     * A claim is dated as its statement runs, not when its node read the time before sending it: the claimer, stalled after
     * its clock read while the database's clock moves on, dates the turns it then claims after the stall. (Across nodes, a
     * claim dated earlier than what its statement saw made the order of claims lie: TwoNodeFairOrderTest failed on it.)
     */
    @Test
    void aClaimIsDatedAsItsStatementRunsNotWhenItsNodeReadTheTime() throws Exception {
        PlatformClient batch = stranger();
        String agent = batch.createAgent(batch.runningInstance("linux"), "batch");
        String blocking = batch.task(agent, HeldChannel.HOLDING_TURN);
        AtomicReference<Stalled> stalled = new AtomicReference<>();
        List<String> tasks;
        try (HeldChannel held = HeldChannel.holdingItsWorker(dataSource, jdbc(), blocking)) {
            // the claimer's next claim stalls after its clock read: the database's instant then, and the turns still waiting
            // (this claim takes some of them, later claims the rest; none is claimed at hand-in while any waits)
            clock.stallNextRead("local-turn-claimer", () -> stalled.set(new Stalled(
                    jdbc().queryForObject("SELECT clock_timestamp()", OffsetDateTime.class),
                    jdbc().queryForList("SELECT channel_id::text FROM local_turn WHERE state = 'ready' AND agent_id = ?::uuid", String.class,
                            agent))));
            // room for four claimed turns beside the held worker: at least one of five waits for the claimer
            tasks = IntStream.rangeClosed(1, 5).mapToObj(index -> batch.task(agent, "task " + index)).toList();
            await(() -> tasks.stream().filter(task -> runtimeState(task) != null).count(), recorded -> recorded == tasks.size(),
                    "the five tasks recorded");
        }
        for (String task : tasks) {
            batch.awaitTask(agent, task, "completed");
        }
        assertThat(stalled.get()).as("the claimer stalled in a claim").isNotNull();
        assertThat(stalled.get().waiting()).as("turns waiting for that claim").isNotEmpty();
        for (String task : stalled.get().waiting()) {
            assertThat(claimedAt(task)).as("claimed after the stall").isAfter(stalled.get().at());
        }
    }

    /** The database's instant while the claimer stalled, and the turns then waiting in the table. */
    private record Stalled(OffsetDateTime at, List<String> waiting) {
    }

    private String runtimeState(String channel) {
        return jdbc().queryForList("SELECT state FROM local_turn WHERE channel_id = ?::uuid", String.class, channel).stream().findFirst()
                .orElse(null);
    }

    private OffsetDateTime claimedAt(String channel) {
        return jdbc().queryForObject("SELECT claimed_at FROM local_turn WHERE channel_id = ?::uuid", OffsetDateTime.class, channel);
    }

    private OffsetDateTime beganAt(String channel) {
        return jdbc().queryForObject("SELECT began_at FROM local_turn WHERE channel_id = ?::uuid", OffsetDateTime.class, channel);
    }
}
