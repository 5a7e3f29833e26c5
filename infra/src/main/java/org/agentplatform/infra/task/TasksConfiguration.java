package org.agentplatform.infra.task;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.task.TurnReports;
import org.agentplatform.infra.PeriodicJob;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.task.R2dbcTaskReads;
import org.agentplatform.query.task.TaskChunks;
import org.agentplatform.query.task.TaskProjection;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Tasks: the dispatcher that takes turns to the agents' runtimes, the projection and reads of tasks and
 * their logs, the chunk writer runtimes stream through, and the sweeper that recovers lost steps.
 */
@Configuration(proxyBeanMethods = false)
public class TasksConfiguration {

    @Bean
    TurnReports turnReports(CommandGateway commands) {
        return new TurnReports(commands);
    }

    @Bean
    TaskChunks taskChunks(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        return new TaskChunks(jdbc, new TransactionTemplate(transactions), clock);
    }

    @Bean
    TaskDispatcher taskDispatcher(CommandGateway commands, LocalRuntime localRuntime, JdbcTemplate jdbc, ExecutorService processExecutor) {
        return new TaskDispatcher(commands, localRuntime, new JdbcQueuedTasks(jdbc), processExecutor);
    }

    @Bean
    TaskProjection taskProjection(JdbcTemplate jdbc) {
        return new TaskProjection(jdbc);
    }

    @Bean
    R2dbcTaskReads taskReads(DatabaseClient database, ReadModelWaits waits) {
        return new R2dbcTaskReads(database, waits);
    }

    @Bean
    PeriodicJob taskSweeps(JdbcTemplate jdbc, TaskDispatcher taskDispatcher, LocalRuntime localRuntime, TaskChunks taskChunks,
            Clock clock, PlatformProperties properties) {
        TaskSweeper sweeper = new TaskSweeper(jdbc, taskDispatcher, localRuntime, taskChunks, clock, properties.tasks().chunkRetention());
        return new PeriodicJob("task-sweeper", properties.operations().sweepInterval(), sweeper::sweep);
    }
}
