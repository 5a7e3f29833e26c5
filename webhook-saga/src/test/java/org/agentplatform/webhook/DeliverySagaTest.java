package org.agentplatform.webhook;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.test.saga.SagaTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole retry schedule, walked with the fixture's clock: 1m, 5m, 30m, 2h, 12h, then dead letter. */
class DeliverySagaTest {

    private static final List<Duration> SCHEDULE = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30),
            Duration.ofHours(2), Duration.ofHours(12));
    private static final DeliveryId ID = DeliveryId.random();
    private static final TaskId TASK = TaskId.random();
    private static final WebhookId WEBHOOK = WebhookId.of(TASK, "https://example.com/hook");

    private SagaTestFixture<DeliverySaga> fixture;
    private DeliveryCreated created;

    @BeforeEach
    void setUp() {
        fixture = new SagaTestFixture<>(DeliverySaga.class);
        created = new DeliveryCreated(ID, WEBHOOK, TASK, OwnerId.random(), "{}", null, null, "event-1", null);
    }

    /** The fixture's time to the millisecond, as deadlines keep it. */
    private Instant now() {
        return fixture.currentTime().truncatedTo(ChronoUnit.MILLIS);
    }

    private static DeliveryAttempt failure(int number, Instant at) {
        return new DeliveryAttempt(number, at, false, 500, "HTTP 500", 3, "", "t=1,v1=x");
    }

    @Test
    void aNewDeliveryStartsASagaWithoutADeadline() {
        fixture.givenNoPriorActivity()
                .whenPublishingA(created)
                .expectActiveSagas(1)
                .expectNoScheduledDeadlines()
                .expectNoDispatchedCommands();
    }

    @Test
    void eachFailureSchedulesTheContractsDelayAndTheDeadlineMakesItDueAgain() {
        fixture.givenAPublished(created);
        for (int attempt = 1; attempt <= SCHEDULE.size(); attempt++) {
            Duration delay = SCHEDULE.get(attempt - 1);
            Instant now = now();
            fixture.whenPublishingA(new DeliveryFailed(ID, WEBHOOK, TASK, failure(attempt, now), now.plus(delay)))
                    .expectScheduledDeadlineWithName(now.plus(delay), DeliverySaga.RETRY_DEADLINE)
                    .expectNoDispatchedCommands();
            fixture.whenTimeElapses(delay.minusSeconds(1)).expectNoDispatchedCommands();
            fixture.whenTimeElapses(Duration.ofSeconds(1)).expectDispatchedCommands(new RetryDelivery(ID));
            fixture.whenPublishingA(new DeliveryRetryDue(ID, WEBHOOK, TASK, attempt + 1, "{}", null)).expectNoScheduledDeadlines();
        }
        fixture.whenPublishingA(new DeliveryDeadLettered(ID, WEBHOOK, TASK, failure(6, now())))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void aSuccessEndsTheSaga() {
        fixture.givenAPublished(created)
                .whenPublishingA(new DeliverySucceeded(ID, WEBHOOK, TASK,
                        new DeliveryAttempt(1, fixture.currentTime(), true, 200, "", 2, "", null)))
                .expectActiveSagas(0);
    }

    @Test
    void deletingTheWebhookCancelsTheWaitingRetryAndStopsTheDelivery() {
        Instant now = fixture.currentTime();
        fixture.givenAPublished(created)
                .andThenAPublished(new DeliveryFailed(ID, WEBHOOK, TASK, failure(1, now), now.plus(Duration.ofMinutes(1))))
                .whenPublishingA(new WebhookRemoved(WEBHOOK, TASK))
                .expectNoScheduledDeadlines()
                .expectDispatchedCommands(new StopDelivery(ID, DeliverySaga.WEBHOOK_DELETED));
        fixture.whenPublishingA(new DeliveryStopped(ID, WEBHOOK, TASK, DeliverySaga.WEBHOOK_DELETED)).expectActiveSagas(0);
    }

    @Test
    void anAttemptInFlightWhenTheWebhookIsDeletedIsTheLast() {
        Instant now = fixture.currentTime();
        fixture.givenAPublished(created)
                .andThenAPublished(new WebhookRemoved(WEBHOOK, TASK))
                .whenPublishingA(new DeliveryFailed(ID, WEBHOOK, TASK, failure(1, now), now.plus(Duration.ofMinutes(1))))
                .expectNoScheduledDeadlines()
                .expectDispatchedCommands(new StopDelivery(ID, DeliverySaga.WEBHOOK_DELETED));
    }

    @Test
    void anotherWebhooksRemovalDoesNotConcernThisDelivery() {
        Instant now = now();
        fixture.givenAPublished(created)
                .andThenAPublished(new DeliveryFailed(ID, WEBHOOK, TASK, failure(1, now), now.plus(Duration.ofMinutes(1))))
                .whenPublishingA(new WebhookRemoved(WebhookId.of(TASK, "https://other.example.com/"), TASK))
                .expectScheduledDeadlineWithName(now.plus(Duration.ofMinutes(1)), DeliverySaga.RETRY_DEADLINE)
                .expectNoDispatchedCommands();
    }
}
