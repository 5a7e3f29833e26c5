package org.agentplatform.infra.local;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.agentplatform.api.instance.RuntimeFaults;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.turn.TurnReports;
import org.agentplatform.infra.adapter.file.SkillArchives;
import org.agentplatform.infra.adapter.model.ModelBackends;
import org.agentplatform.infra.adapter.model.ModelCatalog;
import org.agentplatform.infra.database.RuntimeDatabase;
import org.agentplatform.infra.local.device.LocalDevices;
import org.agentplatform.infra.local.terminal.LocalTerminals;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PeriodicJob;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.infra.platform.WorkerPools;
import org.agentplatform.kernel.catalog.Provider;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.channel.ChannelChunks;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The built-in {@code local} provider, the only place that knows it: its runtime (instances, agents, turns, every runtime
 * method), devices and shells, its entry in the deploy catalog and its cron tick. The rest of the application reaches it
 * through the ports the command side and the API own ({@code InstanceProvisioning}, {@code InstanceRuntime},
 * {@code AgentRuntime}, {@code TerminalHost}, {@code Terminals}, {@code Devices}, {@code RuntimeFaults}).
 */
@Configuration(proxyBeanMethods = false)
public class LocalRuntimeConfiguration {

    @Bean(destroyMethod = "shutdown")
    ExecutorService runtimeExecutor() {
        return WorkerPools.fixed("local-runtime", 8);
    }

    @Bean(destroyMethod = "shutdown")
    ExecutorService turnExecutor(PlatformProperties properties, BackgroundPriority background) {
        return WorkerPools.fixed("local-turns", properties.tasks().turnThreads(), background.threads("local-turns"));
    }

    /** The node's claimer of waiting turns; interrupted at shutdown, so it claims no more. */
    @Bean(destroyMethod = "shutdownNow")
    ExecutorService turnClaimer(BackgroundPriority background) {
        return WorkerPools.fixed("local-turn-claimer", 1, background.threads("local-turn-claimer"));
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService runtimeTimers() {
        return WorkerPools.timer("local-runtime-timer");
    }

    @Bean
    LocalRuntime localRuntime(RuntimeDatabase database, ModelCatalog catalog, ModelBackends backends,
            ChannelChunks channelChunks, TurnReports turnReports, CommandGateway commands, SkillArchives skillArchives,
            ScheduledExecutorService runtimeTimers, ExecutorService runtimeExecutor, ExecutorService turnExecutor,
            ExecutorService turnClaimer, Clock clock, PlatformProperties properties, PersonalContent content, MeterRegistry meters) {
        return new LocalRuntime(database.jdbc(), database.transactions(), catalog, backends, channelChunks, turnReports,
                command -> ProcessCommands.send(commands, command, TurnReports.RUNTIME), skillArchives, runtimeTimers, runtimeExecutor,
                turnExecutor, turnClaimer, clock, properties.tasks().turnTakeover(), properties.tasks().maxQueuedTurns(),
                properties.tasks()::ownerWeight, content, meters, properties.control().realX());
    }

    @Bean
    RuntimeFaults runtimeFaults(LocalRuntime localRuntime) {
        return new LocalRuntimeFaults(localRuntime);
    }

    /** The local instances' screens, for computer and mobile control. */
    @Bean(destroyMethod = "close")
    LocalDevices devices(LocalRuntime localRuntime) {
        return localRuntime.devices();
    }

    /** The local instances' shells, for terminal sessions. */
    @Bean(destroyMethod = "close")
    LocalTerminals localTerminals(CommandGateway commands, PlatformProperties properties) {
        PlatformProperties.Terminals terminals = properties.terminals();
        return new LocalTerminals(properties.dataDir(), terminals.shell(), terminals.scrollback(),
                command -> ProcessCommands.send(commands, command, "terminal"));
    }

    /** The provider's entry in the deploy catalog. */
    @Bean
    Provider localProvider(ModelCatalog models) {
        return LocalProvider.descriptor(models.offers());
    }

    /** Starts the cron runs that fell due, at every sweep. */
    @Bean
    PeriodicJob localCron(LocalRuntime localRuntime, PlatformProperties properties, BackgroundPriority background) {
        return new PeriodicJob("local-cron", properties.operations().sweepInterval(), localRuntime::runDueCron, background);
    }
}
