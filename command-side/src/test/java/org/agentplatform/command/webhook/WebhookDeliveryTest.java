package org.agentplatform.command.webhook;

import static org.agentplatform.command.FixtureMatchers.refused;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.CreateDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.RecordDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.RedeliverDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.RetryDelivery;
import org.agentplatform.kernel.webhook.DeliveryCommand.StartDeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryCommand.StopDelivery;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryAttemptStarted;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryCreated;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryDeadLettered;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryFailed;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryRetryDue;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliveryStopped;
import org.agentplatform.kernel.webhook.DeliveryEvent.DeliverySucceeded;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.RetrySchedule;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebhookDeliveryTest {

    private static final DeliveryId ID = DeliveryId.random();
    private static final WebhookId WEBHOOK = WebhookId.of(TaskId.random(), "https://example.com/hook");
    private static final TaskId TASK = TaskId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final String PAYLOAD = "{\"type\":\"task_status\"}";
    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private final DeliveryCreated created = new DeliveryCreated(ID, WEBHOOK, TASK, OWNER, PAYLOAD, null, null, "event-1", null);
    private AggregateTestFixture<WebhookDelivery> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(WebhookDelivery.class);
        fixture.registerInjectableResource(RetrySchedule.contract());
    }

    private static DeliveryAttempt failure(int number) {
        return new DeliveryAttempt(number, AT, false, 500, "HTTP 500", 12, "oops", "t=1,v1=" + number);
    }

    private static DeliveryAttempt success(int number) {
        return new DeliveryAttempt(number, AT, true, 204, "", 8, "", "t=1,v1=ok");
    }

    @Test
    void aCreatedDeliveryIsPending() {
        fixture.givenNoPriorActivity()
                .when(new CreateDelivery(ID, WEBHOOK, TASK, OWNER, PAYLOAD, "event-1", null))
                .expectEvents(created);
    }

    @Test
    void aLaterDeliveryOfTheWebhookNamesTheOneItWaitsFor() {
        DeliveryId earlier = DeliveryId.random();
        fixture.givenNoPriorActivity()
                .when(new CreateDelivery(ID, WEBHOOK, TASK, OWNER, PAYLOAD, "event-2", earlier))
                .expectEvents(new DeliveryCreated(ID, WEBHOOK, TASK, OWNER, PAYLOAD, null, null, "event-2", earlier));
    }

    @Test
    void a2xxAnswerSucceeds() {
        fixture.given(created).when(new RecordDeliveryAttempt(ID, success(1))).expectEvents(new DeliverySucceeded(ID, WEBHOOK, TASK, success(1)));
    }

    @Test
    void eachFailureSchedulesTheNextAttemptAsTheContractSaysThenDeadLetters() {
        List<Duration> delays = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofHours(12));
        List<Object> history = new ArrayList<>(List.of(created));
        for (int attempt = 1; attempt <= 5; attempt++) {
            fixture.given(history)
                    .when(new RecordDeliveryAttempt(ID, failure(attempt)))
                    .expectEvents(new DeliveryFailed(ID, WEBHOOK, TASK, failure(attempt), AT.plus(delays.get(attempt - 1))));
            history.add(new DeliveryFailed(ID, WEBHOOK, TASK, failure(attempt), AT.plus(delays.get(attempt - 1))));
            fixture.given(history)
                    .when(new RetryDelivery(ID))
                    .expectEvents(new DeliveryRetryDue(ID, WEBHOOK, TASK, attempt + 1, PAYLOAD, null));
            history.add(new DeliveryRetryDue(ID, WEBHOOK, TASK, attempt + 1, PAYLOAD, null));
        }
        fixture.given(history)
                .when(new RecordDeliveryAttempt(ID, failure(6)))
                .expectEvents(new DeliveryDeadLettered(ID, WEBHOOK, TASK, failure(6)));
    }

    @Test
    void onlyTheAwaitedAttemptIsTaken() {
        fixture.given(created).when(new RecordDeliveryAttempt(ID, failure(2))).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliveryFailed(ID, WEBHOOK, TASK, failure(1), AT.plusSeconds(60)))
                .when(new RecordDeliveryAttempt(ID, failure(2)))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliverySucceeded(ID, WEBHOOK, TASK, success(1)))
                .when(new RecordDeliveryAttempt(ID, success(2)))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anAttemptStartsOnceAndOnlyTheAwaitedOne() {
        fixture.given(created)
                .when(new StartDeliveryAttempt(ID, 1, AT))
                .expectEvents(new DeliveryAttemptStarted(ID, WEBHOOK, TASK, 1, AT));
        // started and never recorded (the node died while sending): it is not sent again
        fixture.given(created, new DeliveryAttemptStarted(ID, WEBHOOK, TASK, 1, AT))
                .when(new StartDeliveryAttempt(ID, 1, AT.plusSeconds(60)))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created).when(new StartDeliveryAttempt(ID, 2, AT)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliveryFailed(ID, WEBHOOK, TASK, failure(1), AT.plusSeconds(60)))
                .when(new StartDeliveryAttempt(ID, 2, AT))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliveryAttemptStarted(ID, WEBHOOK, TASK, 1, AT), new DeliveryFailed(ID, WEBHOOK, TASK, failure(1),
                        AT.plusSeconds(60)), new DeliveryRetryDue(ID, WEBHOOK, TASK, 2, PAYLOAD, null))
                .when(new StartDeliveryAttempt(ID, 2, AT.plusSeconds(60)))
                .expectEvents(new DeliveryAttemptStarted(ID, WEBHOOK, TASK, 2, AT.plusSeconds(60)));
    }

    @Test
    void aSixthAttemptWhoseOutcomeIsUnknownDeadLettersTheRow() {
        List<Object> history = new ArrayList<>(List.of(created));
        for (int attempt = 1; attempt <= 5; attempt++) {
            history.add(new DeliveryAttemptStarted(ID, WEBHOOK, TASK, attempt, AT));
            history.add(new DeliveryFailed(ID, WEBHOOK, TASK, failure(attempt), AT.plusSeconds(60)));
            history.add(new DeliveryRetryDue(ID, WEBHOOK, TASK, attempt + 1, PAYLOAD, null));
        }
        history.add(new DeliveryAttemptStarted(ID, WEBHOOK, TASK, 6, AT));
        DeliveryAttempt unknown = DeliveryAttempt.unknown(6, AT);
        fixture.given(history)
                .when(new RecordDeliveryAttempt(ID, unknown))
                .expectEvents(new DeliveryDeadLettered(ID, WEBHOOK, TASK, unknown));
        fixture.given(history).when(new StartDeliveryAttempt(ID, 6, AT)).expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void onlyAFailedDeliveryIsRetried() {
        fixture.given(created).when(new RetryDelivery(ID)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliveryDeadLettered(ID, WEBHOOK, TASK, failure(6))).when(new RetryDelivery(ID))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aStoppedDeliveryStaysFailedAndIsNotRetried() {
        DeliveryFailed failed = new DeliveryFailed(ID, WEBHOOK, TASK, failure(1), AT.plusSeconds(60));
        fixture.given(created, failed).when(new StopDelivery(ID, "webhook deleted"))
                .expectEvents(new DeliveryStopped(ID, WEBHOOK, TASK, "webhook deleted"));
        fixture.given(created, new DeliverySucceeded(ID, WEBHOOK, TASK, success(1))).when(new StopDelivery(ID, "webhook deleted"))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aRedeliverClonesThePayloadIntoANewPendingDeliverySignedAtEachAttempt() {
        DeliveryId clone = DeliveryId.random();
        fixture.given(created, new DeliveryFailed(ID, WEBHOOK, TASK, failure(1), AT.plusSeconds(60)))
                .when(new RedeliverDelivery(ID, clone))
                .expectEvents(new DeliveryCreated(clone, WEBHOOK, TASK, OWNER, PAYLOAD, null, ID, "redeliver:" + clone, null))
                .expectResultMessagePayload(clone);
    }

    @Test
    void onlyAFailedOrDeadLetteredDeliveryIsRedelivered() {
        fixture.given(created).when(new RedeliverDelivery(ID, DeliveryId.random())).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new DeliverySucceeded(ID, WEBHOOK, TASK, success(1)))
                .when(new RedeliverDelivery(ID, DeliveryId.random()))
                .expectException(refused(ErrorCode.CONFLICT));
        DeliveryId clone = DeliveryId.random();
        fixture.given(created, new DeliveryDeadLettered(ID, WEBHOOK, TASK, failure(6)))
                .when(new RedeliverDelivery(ID, clone))
                .expectEvents(new DeliveryCreated(clone, WEBHOOK, TASK, OWNER, PAYLOAD, null, ID, "redeliver:" + clone, null));
    }

    @Test
    void aRedeliveryStoredWithAFixedSignatureRetriesWithIt() {
        DeliveryId clone = DeliveryId.random();
        DeliveryCreated redelivery = new DeliveryCreated(clone, WEBHOOK, TASK, OWNER, PAYLOAD, "t=1,v1=1", ID, "redeliver:" + clone, null);
        DeliveryAttempt sent = new DeliveryAttempt(1, AT, false, 500, "HTTP 500", 5, "", "t=1,v1=1");
        fixture.given(redelivery, new DeliveryFailed(clone, WEBHOOK, TASK, sent, AT.plusSeconds(60)))
                .when(new RetryDelivery(clone))
                .expectEvents(new DeliveryRetryDue(clone, WEBHOOK, TASK, 2, PAYLOAD, "t=1,v1=1"));
    }
}
