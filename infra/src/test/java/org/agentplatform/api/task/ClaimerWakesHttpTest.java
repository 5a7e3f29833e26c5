package org.agentplatform.api.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * With nothing waiting, each task's turn runs at once on its hand-in, and a worker taking it does not wake the node's
 * claimer to look for waiting turns: such a look finds none, a statement per task for nothing.
 */
class ClaimerWakesHttpTest extends ApiTest {

    private static final int TASKS = 20;

    @Autowired
    private MeterRegistry meters;

    @Test
    void tasksThatRunAtOnceOneAfterTheOtherDoNotWakeTheClaimerForEach() {
        PlatformClient owner = stranger();
        String agent = owner.createAgent(owner.runningInstance("linux"), "one at a time");
        owner.awaitTask(agent, owner.task(agent, "first"), "completed");
        double before = wokenLooks();

        for (int index = 0; index < TASKS; index++) {
            owner.awaitTask(agent, owner.task(agent, "task " + index), "completed");
        }

        assertThat(wokenLooks() - before).as("claimer woken while %d tasks ran at once, one after the other", TASKS)
                .isLessThan(TASKS / 4.0);
    }

    private double wokenLooks() {
        return meters.get("agent.platform.turns.claimer.woken").functionCounter().count();
    }
}
