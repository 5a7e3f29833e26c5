package org.agentplatform.kernel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    @Test
    void theContractsScheduleThenDeadLetterAfterTheSixthAttempt() {
        RetrySchedule schedule = RetrySchedule.contract();
        assertThat(schedule.delayAfter(1)).contains(Duration.ofMinutes(1));
        assertThat(schedule.delayAfter(2)).contains(Duration.ofMinutes(5));
        assertThat(schedule.delayAfter(3)).contains(Duration.ofMinutes(30));
        assertThat(schedule.delayAfter(4)).contains(Duration.ofHours(2));
        assertThat(schedule.delayAfter(5)).contains(Duration.ofHours(12));
        assertThat(schedule.delayAfter(6)).isEmpty();
        assertThat(schedule.maxAttempts()).isEqualTo(6);
    }

    @Test
    void aShortenedScheduleKeepsItsShape() {
        assertThat(new RetrySchedule(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(1))).delayAfter(6)).isEmpty();
        assertThatThrownBy(() -> new RetrySchedule(List.of(Duration.ofSeconds(1)))).isInstanceOf(IllegalArgumentException.class);
    }
}
