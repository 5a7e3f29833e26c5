package org.agentplatform.infra.audit;

import java.time.Clock;
import org.agentplatform.api.audit.ChainVerification;
import org.agentplatform.infra.adapter.identity.PlatformSigner;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PeriodicJob;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.infra.replay.JdbcStoredEvents;
import org.agentplatform.infra.replay.ReadModels;
import org.agentplatform.query.audit.AuditTrail;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.instance.InstanceProjection;
import org.agentplatform.query.operation.OperationViewProjection;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.webhook.WebhookProjection;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The audit trail: the chain's processor (one segment, so one order), its signed checkpoints, the history reads, and
 * the point-in-time reads (events folded by the read models' own projections).
 */
@Configuration(proxyBeanMethods = false)
public class AuditConfiguration {

    @Bean
    AuditChain auditChain(JdbcTemplate jdbc) {
        return new AuditChain(jdbc);
    }

    @Bean
    ConfigurerModule auditChainInOneSegment() {
        return configurer -> configurer.eventProcessing(processing -> processing.registerPooledStreamingEventProcessorConfiguration(
                AuditChain.GROUP, (config, builder) -> builder.initialSegmentCount(1).maxClaimedSegments(1).batchSize(256)));
    }

    @Bean
    AuditCheckpoints auditCheckpoints(JdbcTemplate jdbc, PlatformSigner platformSigner, PlatformProperties properties, Clock clock) {
        return new AuditCheckpoints(jdbc, platformSigner, properties.identity().issuer(), clock);
    }

    @Bean
    PeriodicJob auditCheckpointJob(AuditCheckpoints checkpoints, PlatformProperties properties, BackgroundPriority background) {
        return new PeriodicJob("audit-checkpoints", properties.audit().checkpointInterval(), checkpoints::checkpoint, background);
    }

    @Bean
    ChainVerification chainVerification(JdbcTemplate jdbc, Clock clock) {
        return new StoreVerification(jdbc, clock);
    }

    @Bean
    AuditTrail auditTrail(DatabaseClient database) {
        return new AuditTrail(database);
    }

    @Bean
    JdbcStoredEvents storedEvents(JdbcTemplate jdbc, @Qualifier("eventSerializer") Serializer eventSerializer) {
        return new JdbcStoredEvents(jdbc, eventSerializer);
    }

    @Bean
    PointInTime pointInTime(JdbcTemplate jdbc, PlatformTransactionManager transactions, JdbcStoredEvents storedEvents) {
        ReadModels models = new ReadModels(jdbc);
        return new PointInTime(jdbc, new TransactionTemplate(transactions), storedEvents, models.get(TaskProjection.GROUP),
                models.get(OperationViewProjection.GROUP), models.get(WebhookProjection.GROUP), models.get(InstanceProjection.GROUP));
    }
}
