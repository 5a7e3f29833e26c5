package org.agentplatform.api.task;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
 * Turns wait in PostgreSQL and are claimed in a fair order: one owner's backlog does not hold up another owner's task,
 * a conversation's message (interactive) goes ahead of the tasks waiting, and each owner's tasks start in the order they
 * were created. The one turn worker is held by a turn whose chunk waits for its channel's lock, which the test holds,
 * while the backlog builds up; with room for one claimed turn, the rest wait unclaimed.
 */
@DirtiesContext
@TestPropertySource(properties = {"agent-platform.tasks.turn-workers=1", "agent-platform.tasks.max-queued-turns=1"})
class FairTurnsHttpTest extends ApiTest {

    private static final int BACKLOG = 12;

    @Autowired
    private DataSource dataSource;

    @Test
    void anotherOwnersTaskAndAnInteractiveTurnGoAheadOfAFloodWhoseTasksStartInOrder() throws Exception {
        PlatformClient flooding = stranger();
        PlatformClient neighbour = stranger();
        String agent = flooding.createAgent(flooding.runningInstance("linux"), "busy");
        String theirs = neighbour.createAgent(neighbour.runningInstance("linux"), "quiet");
        // its first chunk comes on the worker, which then waits for the channel's lock
        String blocking = flooding.task(agent, HeldChannel.HOLDING_TURN);
        List<String> flood = new ArrayList<>();
        String neighbours;
        String conversation;
        try (HeldChannel held = HeldChannel.holdingItsWorker(dataSource, jdbc(), blocking)) {
            flood.add(flooding.task(agent, "flood 1"));
            // claimed at once while nothing waited (the room for one), before the others are handed in: handed in with
            // them in one of the dispatcher's batches, it would wait for the claimer, which the test's requests could outrun
            await(() -> runtimeState(flood.getFirst()), "running"::equals, "the flood's first claimed");
            IntStream.rangeClosed(2, BACKLOG).forEach(index -> flood.add(flooding.task(agent, "flood " + index)));
            neighbours = neighbour.task(theirs, "my turn");
            conversation = flooding.conversation(agent);
            flooding.say(agent, conversation, "a question");
            // the dispatcher's segments hand the two owners' turns over in either order: each one is awaited
            for (String waiting : concat(flood.subList(1, BACKLOG), List.of(neighbours, conversation))) {
                await(() -> runtimeState(waiting), "ready"::equals, "turn of " + waiting + " waiting unclaimed");
            }
            assertThat(runtimeState(flood.getFirst())).as("run at once while nothing waited: the room for one").isEqualTo("running");
            assertThat(jdbc().queryForObject("SELECT count(*) FROM local_turn WHERE owner_id = (SELECT owner_id FROM local_turn"
                    + " WHERE channel_id = ?::uuid) AND state = 'ready'", Integer.class, blocking)).isEqualTo(BACKLOG - 1 + 1);
        }
        flooding.awaitTurn(agent, conversation, 1, "completed");
        neighbour.awaitTask(theirs, neighbours, "completed");
        for (String task : flood) {
            flooding.awaitTask(agent, task, "completed");
        }

        List<String> started = jdbc().queryForList("SELECT channel_id::text FROM local_turn WHERE channel_id = ANY(?::uuid[])"
                + " ORDER BY claimed_at, log_window", String.class, (Object) concat(flood, List.of(neighbours, conversation)).toArray(String[]::new));
        assertThat(started.indexOf(conversation)).as("the interactive turn first once the worker is free").isEqualTo(1);
        // the flood's first ran at once (nothing waited then: it cost its owner no place); its second and the other owner's
        // task were the two shares waiting at one pass, so either went first
        assertThat(started.indexOf(neighbours)).as("the other owner's task among the next two, before the flood's third").isBetween(2, 3);
        assertThat(started.stream().filter(flood::contains).toList()).as("the flood's tasks in creation order").containsExactlyElementsOf(flood);
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private String runtimeState(String channel) {
        return jdbc().queryForList("SELECT state FROM local_turn WHERE channel_id = ?::uuid", String.class, channel).stream().findFirst()
                .orElse(null);
    }
}
