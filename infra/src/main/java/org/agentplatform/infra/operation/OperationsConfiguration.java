package org.agentplatform.infra.operation;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import javax.crypto.SecretKey;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.agentplatform.api.instance.RuntimeFaults;
import org.agentplatform.api.operation.OperationSettings;
import org.agentplatform.command.CommandSideModule;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.turn.TurnReports;
import org.agentplatform.command.instance.InstanceLifecycle;
import org.agentplatform.command.operation.OperationDispatcher;
import org.agentplatform.command.operation.OperationProjector;
import org.agentplatform.infra.BackgroundPriority;
import org.agentplatform.infra.PeriodicJob;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.WorkerPools;
import org.agentplatform.infra.axon.CommitAnnouncer;
import org.agentplatform.infra.axon.DeadLetters;
import org.agentplatform.infra.database.DatabaseConfiguration;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.database.RuntimeDatabase;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.infra.local.LocalRuntimeFaults;
import org.agentplatform.infra.local.SkillArchives;
import org.agentplatform.infra.model.ModelBackends;
import org.agentplatform.infra.model.ModelCatalog;
import org.agentplatform.infra.secret.SecretVault;
import org.agentplatform.infra.secret.VaultKey;
import org.agentplatform.query.agent.AgentProjection;
import org.agentplatform.query.agent.R2dbcAgentReads;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.feed.PostgresChangeFeed;
import org.agentplatform.query.instance.InstanceProjection;
import org.agentplatform.query.instance.R2dbcInstanceReads;
import org.agentplatform.query.operation.OperationViewProjection;
import org.agentplatform.query.operation.R2dbcOperationReads;
import org.agentplatform.query.channel.ChannelChunks;
import org.agentplatform.query.channel.ChannelLog;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Instances, runtime operations and agents: the command side's aggregates and processes, the read
 * side's projections, reads and change feed, and the built-in {@code local} provider behind the ports.
 */
@Configuration(proxyBeanMethods = false)
public class OperationsConfiguration {

    @Bean
    CommandSideModule commandSideModule() {
        return new CommandSideModule();
    }

    /** The processes' hand-off from event processor threads: commands are sent outside the processor's transaction. */
    @Bean(destroyMethod = "shutdown")
    ExecutorService processExecutor(BackgroundPriority background) {
        return WorkerPools.fixed("process", 8, background.threads("process"));
    }

    @Bean(destroyMethod = "shutdown")
    ExecutorService runtimeExecutor() {
        return WorkerPools.fixed("local-runtime", 8);
    }

    @Bean(destroyMethod = "shutdown")
    ExecutorService turnExecutor(PlatformProperties properties, BackgroundPriority background) {
        return WorkerPools.fixed("local-turns", properties.tasks().turnThreads(), background.threads("local-turns"));
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService runtimeTimers() {
        return WorkerPools.timer("local-runtime-timer");
    }

    @Bean
    LocalRuntime localRuntime(RuntimeDatabase database, ModelCatalog catalog, ModelBackends backends,
            ChannelChunks channelChunks, TurnReports turnReports, CommandGateway commands, SkillArchives skillArchives,
            ScheduledExecutorService runtimeTimers, ExecutorService runtimeExecutor, ExecutorService turnExecutor, Clock clock,
            PlatformProperties properties,
            MeterRegistry meters) {
        return new LocalRuntime(database.jdbc(), database.transactions(), catalog, backends, channelChunks, turnReports,
                command -> ProcessCommands.send(commands, command, TurnReports.RUNTIME), skillArchives, runtimeTimers, runtimeExecutor, turnExecutor, clock,
                properties.tasks().turnTakeover(), properties.tasks().maxQueuedTurns(), meters, properties.control().realX());
    }

    @Bean
    RuntimeFaults runtimeFaults(LocalRuntime localRuntime) {
        return new LocalRuntimeFaults(localRuntime);
    }

    @Bean
    InstanceLifecycle instanceLifecycle(LocalRuntime localRuntime, CommandGateway commands, ExecutorService processExecutor) {
        return new InstanceLifecycle(localRuntime, commands, processExecutor);
    }

    @Bean
    OperationDispatcher operationDispatcher(CommandGateway commands, LocalRuntime localRuntime, JdbcTemplate jdbc,
            ExecutorService processExecutor, Clock clock, PlatformProperties properties) {
        return new OperationDispatcher(commands, localRuntime, new JdbcQueuedOperations(jdbc), processExecutor, clock,
                properties.operations().answerTimeout());
    }

    @Bean
    OperationProjector operationProjector(CommandGateway commands, ExecutorService processExecutor) {
        return new OperationProjector(commands, processExecutor);
    }

    @Bean
    PeriodicJob operationSweeps(JdbcTemplate jdbc, OperationDispatcher dispatcher, OperationProjector projector,
            LocalRuntime localRuntime, Clock clock, PlatformProperties properties, BackgroundPriority background) {
        OperationSweeper sweeper = new OperationSweeper(jdbc, dispatcher, projector, localRuntime, clock);
        return new PeriodicJob("operation-sweeper", properties.operations().sweepInterval(), sweeper::sweep, background);
    }

    @Bean
    InstanceProjection instanceProjection(JdbcTemplate jdbc, R2dbcAgentReads agentReads) {
        return new InstanceProjection(jdbc, agentReads.placementChanges());
    }

    @Bean
    AgentProjection agentProjection(JdbcTemplate jdbc, R2dbcAgentReads agentReads) {
        return new AgentProjection(jdbc, agentReads.placementChanges());
    }

    @Bean
    OperationViewProjection operationViewProjection(JdbcTemplate jdbc) {
        return new OperationViewProjection(jdbc);
    }

    @Bean
    R2dbcInstanceReads instanceReads(DatabaseClient database, ReadModelWaits waits) {
        return new R2dbcInstanceReads(database, waits);
    }

    @Bean(destroyMethod = "close")
    R2dbcAgentReads agentReads(DatabaseClient database, ReadModelWaits waits, ChangeFeed changeFeed) {
        return new R2dbcAgentReads(database, waits, changeFeed);
    }

    /** Reads of operations; one the read model does not show yet is folded from its stored events by the operation projection. */
    @Bean
    R2dbcOperationReads operationReads(DatabaseClient database, ReadModelWaits waits, PointInTime pointInTime) {
        return new R2dbcOperationReads(database, waits, operation -> pointInTime.operation(operation, Instant.MAX));
    }

    @Bean(destroyMethod = "close")
    PostgresChangeFeed changeFeed(DatabaseServer server) {
        return new PostgresChangeFeed(new PostgresqlConnectionFactory(DatabaseConfiguration.r2dbc(server.endpoint())),
                List.of(OperationViewProjection.CHANNEL, ChannelLog.NOTIFICATIONS, ReadModelWaits.CHANNEL, DeadLetters.RETRY_CHANNEL,
                        CommitAnnouncer.CHANNEL));
    }

    @Bean
    ReadModelWaits readModelWaits(ChangeFeed changeFeed) {
        return new ReadModelWaits(changeFeed);
    }

    @Bean
    SecretKey vaultKey(PlatformProperties properties) {
        return VaultKey.resolve(properties.secrets().key(), properties.dataDir());
    }

    @Bean
    SecretVault secretVault(DatabaseClient database, SecretKey vaultKey, Clock clock) {
        return new SecretVault(database, vaultKey, clock);
    }

    @Bean
    OperationSettings operationSettings(PlatformProperties properties) {
        PlatformProperties.Operations operations = properties.operations();
        return new OperationSettings(operations.defaultDeadline(), operations.maxDeadline(), operations.syncWait(),
                operations.dedupeWindow());
    }
}
