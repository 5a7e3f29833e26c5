package org.agentplatform.command.webhook;

import static org.agentplatform.command.FixtureMatchers.refused;

import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.WebhookCommand.RegisterWebhook;
import org.agentplatform.kernel.webhook.WebhookCommand.Registered;
import org.agentplatform.kernel.webhook.WebhookCommand.RemoveWebhook;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookCredentialsChanged;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRegistered;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebhookTest {

    private static final TaskId TASK = TaskId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final String URL = "https://example.com/hook";
    private static final WebhookId ID = WebhookId.of(TASK, URL);

    private final WebhookRegistered registered = new WebhookRegistered(ID, TASK, OWNER, URL, "secret:s1", "secret:t1");
    private AggregateTestFixture<Webhook> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Webhook.class);
    }

    @Test
    void aFirstRegistrationRegisters() {
        fixture.givenNoPriorActivity()
                .when(new RegisterWebhook(ID, TASK, OWNER, URL, "secret:s1", "secret:t1"))
                .expectEvents(registered)
                .expectResultMessagePayload(new Registered(ID, 0));
    }

    @Test
    void registeringAgainWithAFreshSecretRotatesIt() {
        fixture.given(registered)
                .when(new RegisterWebhook(ID, TASK, OWNER, URL, "secret:s2", null))
                .expectEvents(new WebhookCredentialsChanged(ID, TASK, "secret:s2", "secret:t1"));
    }

    @Test
    void registeringAgainWithoutASecretLeavesItUntouched() {
        fixture.given(registered).when(new RegisterWebhook(ID, TASK, OWNER, URL, null, null)).expectNoEvents()
                .expectResultMessagePayload(new Registered(ID, 0));
    }

    @Test
    void aRemovedWebhookStopsAndCanBeRegisteredAnew() {
        fixture.given(registered).when(new RemoveWebhook(ID, OWNER)).expectEvents(new WebhookRemoved(ID, TASK));
        fixture.given(registered, new WebhookRemoved(ID, TASK))
                .when(new RegisterWebhook(ID, TASK, OWNER, URL, null, null))
                .expectEvents(new WebhookRegistered(ID, TASK, OWNER, URL, null, null));
    }

    @Test
    void onlyTheOwnerRegistersOrRemovesAndOnlyOnce() {
        fixture.given(registered).when(new RemoveWebhook(ID, OwnerId.random())).expectException(refused(ErrorCode.NOT_FOUND));
        fixture.given(registered, new WebhookRemoved(ID, TASK)).when(new RemoveWebhook(ID, OWNER))
                .expectException(refused(ErrorCode.NOT_FOUND));
        fixture.given(registered).when(new RegisterWebhook(ID, TASK, OwnerId.random(), URL, null, null))
                .expectException(refused(ErrorCode.AGENT_NOT_FOUND));
    }
}
