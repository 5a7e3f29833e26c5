package org.agentplatform.infra.app.instance;

import java.util.concurrent.ExecutorService;
import org.agentplatform.command.instance.InstanceLifecycle;
import org.agentplatform.command.instance.InstanceProvisioning;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.agent.R2dbcAgentReads;
import org.agentplatform.query.instance.InstanceProjection;
import org.agentplatform.query.instance.R2dbcInstanceReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Instances: their lifecycle process (through the provider's port), their read model and reads. */
@Configuration(proxyBeanMethods = false)
public class InstancesConfiguration {

    @Bean
    InstanceLifecycle instanceLifecycle(InstanceProvisioning provisioning, CommandGateway commands, ExecutorService processExecutor) {
        return new InstanceLifecycle(provisioning, commands, processExecutor);
    }

    @Bean
    InstanceProjection instanceProjection(JdbcTemplate jdbc, R2dbcAgentReads agentReads) {
        return new InstanceProjection(jdbc, agentReads.placementChanges());
    }

    @Bean
    R2dbcInstanceReads instanceReads(DatabaseClient database, ReadModelWaits waits) {
        return new R2dbcInstanceReads(database, waits);
    }
}
