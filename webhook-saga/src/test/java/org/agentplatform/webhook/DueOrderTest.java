package org.agentplatform.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.junit.jupiter.api.Test;

class DueOrderTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final WebhookId HOOK = new WebhookId(UUID.randomUUID());
    private static final WebhookId OTHER_HOOK = new WebhookId(UUID.randomUUID());
    private static final DeliveryId QUEUED = DeliveryId.random();
    private static final DeliveryId RUNNING = DeliveryId.random();
    private static final DeliveryId COMPLETED = DeliveryId.random();

    private Instant now = T0.plusMillis(50);
    private final DueOrder<String> order = new DueOrder<>(Duration.ofSeconds(30), new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    });

    @Test
    void retriesThatArriveOutOfOrderAreAttemptedInTheOrderTheyBecameDue() {
        order.failed(HOOK, QUEUED, T0.plusMillis(10));
        order.failed(HOOK, RUNNING, T0.plusMillis(20));
        order.failed(HOOK, COMPLETED, T0.plusMillis(30));
        assertThat(order.due(HOOK, COMPLETED, "completed", now)).isEmpty();
        assertThat(order.nextCheck()).contains(T0.plusMillis(10).plusSeconds(30));
        assertThat(order.due(HOOK, QUEUED, "queued", now)).containsExactly("queued");
        assertThat(order.due(HOOK, RUNNING, "running", now)).containsExactly("running", "completed");
        assertThat(order.nextCheck()).isEmpty();
    }

    @Test
    void anotherWebhookAndALaterRetryDoNotWait() {
        order.failed(HOOK, QUEUED, T0.plusMillis(10));
        order.failed(HOOK, RUNNING, T0.plusSeconds(300));
        assertThat(order.due(OTHER_HOOK, COMPLETED, "other", now)).containsExactly("other");
        assertThat(order.due(HOOK, QUEUED, "queued", now)).containsExactly("queued");
    }

    @Test
    void aRetryThatNeverComesHoldsTheOthersOnlyForItsPatience() {
        order.failed(HOOK, QUEUED, T0.plusMillis(10));
        order.failed(HOOK, RUNNING, T0.plusMillis(20));
        assertThat(order.due(HOOK, RUNNING, "running", now)).isEmpty();
        assertThat(order.overdue()).isEmpty();
        now = T0.plusMillis(10).plusSeconds(30);
        assertThat(order.overdue()).containsExactly("running");
    }

    @Test
    void aDeliveryThatWillNotBeRetriedReleasesThoseBehindIt() {
        order.failed(HOOK, QUEUED, T0.plusMillis(10));
        order.failed(HOOK, RUNNING, T0.plusMillis(20));
        assertThat(order.due(HOOK, RUNNING, "running", now)).isEmpty();
        assertThat(order.settled(HOOK, QUEUED)).containsExactly("running");
    }
}
