package org.agentplatform.api.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.agentplatform.api.task.TaskRequests.InvokeRequest;
import org.junit.jupiter.api.Test;

class TaskRequestsTest {

    @Test
    void anInvokeTimeoutIsClampedToTheContractsRange() {
        assertThat(timeout(null)).isEqualTo(Duration.ofMillis(115_000));
        assertThat(timeout(120_000L)).isEqualTo(Duration.ofMillis(115_000));
        assertThat(timeout(115_001L)).isEqualTo(Duration.ofMillis(115_000));
        assertThat(timeout(5_000L)).isEqualTo(Duration.ofMillis(5_000));
        assertThat(timeout(99L)).isEqualTo(Duration.ofMillis(100));
        assertThat(timeout(-5L)).isEqualTo(Duration.ofMillis(100));
    }

    private static Duration timeout(Long millis) {
        return new InvokeRequest("hi", null, null, null, millis).timeout();
    }
}
