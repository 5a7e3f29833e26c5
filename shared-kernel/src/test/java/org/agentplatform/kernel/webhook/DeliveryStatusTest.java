package org.agentplatform.kernel.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeliveryStatusTest {

    @Test
    void aPendingDeliverySucceedsFailsOrIsDeadLettered() {
        assertThat(DeliveryStatus.PENDING.canBecome(DeliveryStatus.SUCCEEDED)).isTrue();
        assertThat(DeliveryStatus.PENDING.canBecome(DeliveryStatus.FAILED)).isTrue();
        assertThat(DeliveryStatus.PENDING.canBecome(DeliveryStatus.DEAD_LETTER)).isTrue();
        assertThat(DeliveryStatus.PENDING.canBecome(DeliveryStatus.PENDING)).isFalse();
    }

    @Test
    void aFailedOneIsOnlyDueAgainAndTheEndsAreFinal() {
        assertThat(DeliveryStatus.FAILED.canBecome(DeliveryStatus.PENDING)).isTrue();
        assertThat(DeliveryStatus.FAILED.canBecome(DeliveryStatus.FAILED)).as("an outcome needs an attempt, which needs pending").isFalse();
        assertThat(DeliveryStatus.FAILED.canBecome(DeliveryStatus.SUCCEEDED)).isFalse();
        assertThat(DeliveryStatus.FAILED.isTerminal()).isFalse();
        assertThat(DeliveryStatus.SUCCEEDED.isTerminal()).isTrue();
        assertThat(DeliveryStatus.DEAD_LETTER.isTerminal()).isTrue();
        for (DeliveryStatus next : DeliveryStatus.values()) {
            assertThat(DeliveryStatus.SUCCEEDED.canBecome(next)).isFalse();
            assertThat(DeliveryStatus.DEAD_LETTER.canBecome(next)).isFalse();
        }
    }

    @Test
    void onlyFailedAndDeadLetteredRowsAreRedelivered() {
        for (DeliveryStatus status : DeliveryStatus.values()) {
            assertThat(status.canBeRedelivered()).isEqualTo(status == DeliveryStatus.FAILED || status == DeliveryStatus.DEAD_LETTER);
        }
    }
}
