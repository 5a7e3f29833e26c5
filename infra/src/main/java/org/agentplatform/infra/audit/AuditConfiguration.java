package org.agentplatform.infra.audit;

import com.nimbusds.jose.jwk.RSAKey;
import java.time.Clock;
import org.agentplatform.infra.PeriodicJob;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.query.audit.AuditTrail;
import org.axonframework.config.ConfigurerModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** The audit trail: the chain's processor (one segment, so one order), its signed checkpoints, and the history reads. */
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
    AuditCheckpoints auditCheckpoints(JdbcTemplate jdbc, RSAKey tokenSigningKey, PlatformProperties properties, Clock clock) {
        return new AuditCheckpoints(jdbc, tokenSigningKey, properties.identity().issuer(), clock);
    }

    @Bean
    PeriodicJob auditCheckpointJob(AuditCheckpoints checkpoints, PlatformProperties properties) {
        return new PeriodicJob("audit-checkpoints", properties.audit().checkpointInterval(), checkpoints::checkpoint);
    }

    @Bean
    AuditTrail auditTrail(DatabaseClient database) {
        return new AuditTrail(database);
    }
}
