package org.agentplatform.infra.app.operation;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import org.agentplatform.api.operation.OperationSettings;
import org.agentplatform.command.operation.InstanceRuntime;
import org.agentplatform.command.operation.OperationDispatcher;
import org.agentplatform.command.operation.OperationProjector;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PeriodicJob;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.operation.OperationViewProjection;
import org.agentplatform.query.operation.R2dbcOperationReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Runtime operations: their dispatch to the instance's runtime (through its port), projection, recovery sweep and reads. */
@Configuration(proxyBeanMethods = false)
public class OperationsConfiguration {

    @Bean
    OperationDispatcher operationDispatcher(CommandGateway commands, InstanceRuntime instanceRuntime, JdbcTemplate jdbc,
            ExecutorService processExecutor, Clock clock, PlatformProperties properties) {
        return new OperationDispatcher(commands, instanceRuntime, new JdbcQueuedOperations(jdbc), processExecutor, clock,
                properties.operations().answerTimeout());
    }

    @Bean
    OperationProjector operationProjector(CommandGateway commands, ExecutorService processExecutor) {
        return new OperationProjector(commands, processExecutor);
    }

    @Bean
    PeriodicJob operationSweeps(JdbcTemplate jdbc, OperationDispatcher dispatcher, OperationProjector projector, Clock clock,
            PlatformProperties properties, BackgroundPriority background) {
        OperationSweeper sweeper = new OperationSweeper(jdbc, dispatcher, projector, clock);
        return new PeriodicJob("operation-sweeper", properties.operations().sweepInterval(), sweeper::sweep, background);
    }

    @Bean
    OperationViewProjection operationViewProjection(JdbcTemplate jdbc) {
        return new OperationViewProjection(jdbc);
    }

    /** Reads of operations; one the read model does not show yet is folded from its stored events by the operation projection. */
    @Bean
    R2dbcOperationReads operationReads(DatabaseClient database, ReadModelWaits waits, PointInTime pointInTime) {
        return new R2dbcOperationReads(database, waits, operation -> pointInTime.operation(operation, Instant.MAX));
    }

    @Bean
    OperationSettings operationSettings(PlatformProperties properties) {
        PlatformProperties.Operations operations = properties.operations();
        return new OperationSettings(operations.defaultDeadline(), operations.maxDeadline(), operations.syncWait(),
                operations.dedupeWindow());
    }
}
