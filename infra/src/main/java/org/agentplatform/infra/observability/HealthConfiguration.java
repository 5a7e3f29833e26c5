package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.eventstore.ProcessorDeadLetters;
import org.agentplatform.infra.eventstore.ProcessorFailures;
import org.agentplatform.infra.eventstore.StoreHead;
import org.agentplatform.infra.observability.EventProcessorsHealth;
import org.agentplatform.infra.observability.ProcessorDeadLetterHealth;
import org.axonframework.config.EventProcessingConfiguration;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Health that tells the truth in time: every check answers within {@link #BOX} (a load balancer's probe must not wait
 * on a database that is gone), DOWN is 503 on readiness and on {@code /actuator/health} (application.yml), and the
 * database check replaces Spring's, which waits for a connection as long as the pools do.
 */
@Configuration(proxyBeanMethods = false)
public class HealthConfiguration {

    /** How long any health check may take before it counts as DOWN. */
    public static final Duration BOX = Duration.ofMillis(1500);

    /** Where blocking checks run: one at a time per check ({@link TimeBoxedHealth}), so a few threads at most. */
    @Bean(destroyMethod = "shutdownNow")
    ExecutorService healthChecks() {
        return Executors.newCachedThreadPool(Thread.ofPlatform().name("health-check-", 0).daemon().factory());
    }

    @Bean
    DatabaseHealth dbHealthIndicator(DatabaseClient database, DatabaseServer server) {
        return new DatabaseHealth(database, server, BOX);
    }

    /** Parked events ({@code deadLetters}). */
    @Bean
    ReactiveHealthIndicator deadLettersHealthIndicator(JdbcTemplate jdbc, ListableBeanFactory beans, MeterRegistry meters,
            ExecutorService healthChecks) {
        return new TimeBoxedHealth(new ProcessorDeadLetterHealth(jdbc, ProcessorDeadLetters.processingGroups(beans), meters), BOX, healthChecks);
    }

    /** Start-up, phase by phase, in the log; also how the schema is migrated (Flyway's own way, timed). */
    @Bean
    StartupTimeline startupTimeline(ObjectProvider<EventProcessingConfiguration> processing) {
        return new StartupTimeline(processing);
    }

    /** Whether the processors make progress ({@code eventProcessors}, part of readiness). */
    @Bean
    ReactiveHealthIndicator eventProcessorsHealthIndicator(EventProcessingConfiguration processing, ProcessorFailures failures,
            StoreHead storeHead, ExecutorService healthChecks) {
        return new TimeBoxedHealth(new EventProcessorsHealth(processing, failures, storeHead), BOX, healthChecks);
    }
}
