package org.agentplatform.kernel.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TaskStatusTest {

    @Test
    void theTerminalStatusesAreTheContractsFive() {
        assertThat(Arrays.stream(TaskStatus.values()).filter(TaskStatus::isTerminal).map(TaskStatus::wireName))
                .containsExactlyInAnyOrder("completed", "failed", "canceled", "timeout", "rejected");
    }

    @Test
    void onlyAWaitingTaskGoesBackToRunning() {
        assertThat(TaskStatus.INPUT_REQUIRED.canBecome(TaskStatus.RUNNING)).isTrue();
        assertThat(TaskStatus.AUTH_REQUIRED.canBecome(TaskStatus.RUNNING)).isTrue();
        assertThat(TaskStatus.INPUT_REQUIRED.canBecome(TaskStatus.COMPLETED)).isFalse();
        assertThat(TaskStatus.COMPLETED.canBecome(TaskStatus.RUNNING)).isFalse();
    }

    @Test
    void everyUnfinishedStatusCanBeCanceledAndTimedOut() {
        for (TaskStatus status : TaskStatus.values()) {
            assertThat(status.canBecome(TaskStatus.CANCELED)).isEqualTo(!status.isTerminal());
            assertThat(status.canBecome(TaskStatus.TIMEOUT)).isEqualTo(!status.isTerminal());
        }
    }

    @Test
    void wireNamesRoundTrip() {
        for (TaskStatus status : TaskStatus.values()) {
            assertThat(TaskStatus.fromWireName(status.wireName())).contains(status);
        }
        assertThat(TaskStatus.fromWireName("succeeded")).isEmpty();
    }
}
