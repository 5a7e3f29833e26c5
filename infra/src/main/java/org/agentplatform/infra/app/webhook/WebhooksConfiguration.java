package org.agentplatform.infra.app.webhook;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agentplatform.infra.adapter.secret.SecretVault;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PeriodicJob;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.kernel.webhook.RetrySchedule;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.webhook.R2dbcWebhookReads;
import org.agentplatform.query.webhook.WebhookProjection;
import org.agentplatform.webhook.CallbackSender;
import org.agentplatform.webhook.DeliveryDispatcher;
import org.agentplatform.webhook.SsrfGuard;
import org.agentplatform.webhook.WebhookFanOut;
import org.agentplatform.webhook.WebhookSagaModule;
import org.agentplatform.webhook.WebhookTargets;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Task webhooks: the fan-out of task status changes, the delivery saga and its retry schedule, the
 * dispatcher that sends signed callbacks (through the SSRF guard), the audit projection, and the sweep.
 */
@Configuration(proxyBeanMethods = false)
public class WebhooksConfiguration {

    @Bean
    WebhookSagaModule webhookSagaModule() {
        return new WebhookSagaModule();
    }

    /** Injected into the delivery aggregate's attempt handler. */
    @Bean
    RetrySchedule retrySchedule(PlatformProperties properties) {
        return new RetrySchedule(properties.webhooks().retryDelays());
    }

    @Bean
    WebhookFanOut webhookFanOut(JdbcTemplate jdbc, CommandGateway commands) {
        return new WebhookFanOut(jdbc, commands);
    }

    /** Attempts (and their DNS lookups) wait on the network: virtual threads, one per attempt. */
    @Bean(destroyMethod = "shutdown")
    ExecutorService webhookAttempts() {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("webhook-attempt-", 0).factory());
    }

    @Bean
    CallbackSender callbackSender(PlatformProperties properties, ExecutorService webhookAttempts, Clock clock) {
        PlatformProperties.Webhooks webhooks = properties.webhooks();
        return new CallbackSender(new SsrfGuard(webhooks.allowedNetworks()), webhookAttempts, webhooks.attemptTimeout(), clock);
    }

    @Bean
    WebhookTargets webhookTargets(JdbcTemplate jdbc, SecretVault vault) {
        return new WebhookTargets(jdbc, reference -> vault.open(reference).block());
    }

    @Bean
    DeliveryDispatcher deliveryDispatcher(CommandGateway commands, EventStore eventStore, WebhookTargets webhookTargets,
            CallbackSender callbackSender, ExecutorService webhookAttempts, Clock clock) {
        return new DeliveryDispatcher(commands, eventStore, webhookTargets, callbackSender, webhookAttempts, clock);
    }

    @Bean
    WebhookProjection webhookProjection(JdbcTemplate jdbc) {
        return new WebhookProjection(jdbc);
    }

    @Bean
    R2dbcWebhookReads webhookReads(DatabaseClient database, ReadModelWaits waits) {
        return new R2dbcWebhookReads(database, waits);
    }

    @Bean
    WebhookSweeper webhookSweeper(JdbcTemplate jdbc, DeliveryDispatcher deliveryDispatcher, CommandGateway commands, Clock clock,
            PlatformProperties properties) {
        return new WebhookSweeper(jdbc, deliveryDispatcher, commands, clock, WebhookSweeper.stuckAfter(properties.webhooks().attemptTimeout()));
    }

    @Bean
    PeriodicJob webhookSweeps(WebhookSweeper webhookSweeper, PlatformProperties properties, BackgroundPriority background) {
        return new PeriodicJob("webhook-sweeper", properties.operations().sweepInterval(), webhookSweeper::sweep, background);
    }
}
