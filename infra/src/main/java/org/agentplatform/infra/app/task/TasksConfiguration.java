package org.agentplatform.infra.app.task;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.agentplatform.api.quota.BacklogSettings;
import org.agentplatform.api.quota.FairShare;
import org.agentplatform.api.quota.FairShareFilter;
import org.agentplatform.api.quota.OwnerBacklog;
import org.agentplatform.api.web.MatchedRoutes;
import org.agentplatform.command.conversation.ConversationDispatcher;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.command.turn.TurnReports;
import org.agentplatform.infra.database.RuntimeDatabase;
import org.agentplatform.infra.eventstore.ProcessorCongestion;
import org.agentplatform.infra.eventstore.StoreHead;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.CpuPressure;
import org.agentplatform.infra.platform.PeriodicJob;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.infra.replay.JdbcStoredEvents;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.RecentEvents;
import org.agentplatform.query.WriteBatching;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.channel.ChannelChunks;
import org.agentplatform.query.task.FreshTasks;
import org.agentplatform.query.task.R2dbcTaskReads;
import org.agentplatform.query.task.TaskProjection;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Tasks: their dispatch to the agents' runtimes (through the runtime's port), projection and reads, the bound on an
 * owner's backlog; and what the turns of
 * tasks and conversations share: the reports of their outcomes, the chunk writer runtimes stream through, and the
 * sweep that recovers lost steps of both.
 */
@Configuration(proxyBeanMethods = false)
public class TasksConfiguration {

    /** The task dispatcher's segments ({@link #taskDispatcherPerOwner}). */
    static final int DISPATCH_SEGMENTS = 8;

    @Bean
    TurnReports turnReports(CommandGateway commands) {
        return new TurnReports(commands);
    }

    @Bean
    ChannelChunks channelChunks(RuntimeDatabase database, Clock clock) {
        return new ChannelChunks(database.jdbc(), database.transactions(), clock);
    }

    @Bean
    TaskDispatcher taskDispatcher(CommandGateway commands, AgentRuntime agentRuntime, JdbcTemplate jdbc, ExecutorService processExecutor) {
        return new TaskDispatcher(commands, agentRuntime, new JdbcQueuedTasks(jdbc), processExecutor);
    }

    /**
     * The dispatcher's events in order per owner ({@link TaskDispatcher#sequence}), per aggregate otherwise, over
     * {@value #DISPATCH_SEGMENTS} segments: an owner's events wait behind those of the owners that share its segment, so the
     * more segments, the fewer owners a flood holds up (a processor started before keeps the segments it has).
     */
    @Bean
    ConfigurerModule taskDispatcherPerOwner() {
        SequentialPerAggregatePolicy perAggregate = SequentialPerAggregatePolicy.instance();
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSequencingPolicy(TaskDispatcher.GROUP, config -> event -> {
                    Object owner = TaskDispatcher.sequence(event.getPayload());
                    return owner != null ? owner : perAggregate.getSequenceIdentifierFor(event);
                })
                .registerPooledStreamingEventProcessorConfiguration(TaskDispatcher.GROUP,
                        (config, builder) -> builder.initialSegmentCount(DISPATCH_SEGMENTS).maxClaimedSegments(DISPATCH_SEGMENTS)));
    }

    @Bean
    TaskProjection taskProjection(JdbcTemplate jdbc, WriteBatching batching) {
        return new TaskProjection(jdbc, batching);
    }

    /** Reads of tasks; one the read model does not show yet is folded from its stored events by the task projection itself. */
    @Bean
    R2dbcTaskReads taskReads(DatabaseClient database, ReadModelWaits waits, PointInTime pointInTime) {
        return new R2dbcTaskReads(database, waits, task -> pointInTime.task(task, Instant.MAX).map(PointInTime.TaskAt::task));
    }

    /** The bounds on an owner's unfinished tasks and invokes and on a conversation's waiting messages. */
    @Bean
    BacklogSettings backlogSettings(PlatformProperties properties) {
        return new BacklogSettings(properties.tasks().maxUnfinishedPerOwner(), properties.tasks().maxUnfinishedInvokesPerOwner(),
                properties.conversations().maxWaitingMessages());
    }

    @Bean
    OwnerBacklog ownerBacklog(R2dbcTaskReads taskReads, BacklogSettings settings, Clock clock) {
        return new OwnerBacklog(taskReads, settings, clock);
    }

    /**
     * Whether the node is saturated: the task dispatcher or the task projection too far behind the store
     * ({@code agent-platform.tasks.saturation-lag-events}), sampled every 100 ms at the requests' own priority (a sample
     * that waits for a core while the node is saturated is the one that must not be late).
     */
    @Bean
    ProcessorCongestion taskCongestion(EventProcessingConfiguration processing, StoreHead storeHead, PlatformProperties properties,
            Clock clock) {
        return new ProcessorCongestion(processing, storeHead, List.of(TaskDispatcher.GROUP, TaskProjection.GROUP),
                properties.tasks().saturationLagEvents(), CpuPressure.ofThisMachine(), clock);
    }

    @Bean
    PeriodicJob taskCongestionSampler(ProcessorCongestion congestion) {
        // niceness 0: the requests' own priority
        return new PeriodicJob("saturation-sampler", ProcessorCongestion.SAMPLE_INTERVAL, congestion::sample, new BackgroundPriority(0));
    }

    /**
     * Each owner's share of what the node carries, weighted as in the fair order of turns, held below the edge while several
     * share it ({@code agent-platform.tasks.shared-cpu-pressure}).
     */
    @Bean
    FairShare fairShare(ProcessorCongestion congestion, PlatformProperties properties, Clock clock) {
        return new FairShare(congestion, properties.tasks()::ownerWeight, properties.tasks().sharedCpuPressure(), clock);
    }

    /** Task creates held to their owners' shares before their bodies are read. */
    @Bean
    FairShareFilter fairShareFilter(FairShare fairShare, MatchedRoutes matchedRoutes, ErrorResponseWriter writer) {
        return new FairShareFilter(fairShare, matchedRoutes, writer);
    }

    /** The node's ceiling on task creates a second, for operators: {@code +Inf} until the node first saturated. */
    @Bean
    MeterBinder admissionCeilingGauge(FairShare fairShare) {
        return registry -> Gauge.builder("agent.platform.tasks.admission.ceiling", fairShare, FairShare::ceiling)
                .description("Task creates a second this node shares between owners when several ask for more; +Inf until it first saturated")
                .register(registry);
    }

    /** The machine's CPU pressure as the node reads it (NaN when the machine does not say), for operators. */
    @Bean
    MeterBinder cpuPressureGauge(ProcessorCongestion congestion) {
        return registry -> Gauge.builder("agent.platform.cpu.pressure", congestion, ProcessorCongestion::cpuPressure)
                .description("Share of recent time the machine's runnable work waited for a core (smoothed); the node holds task creates"
                        + " below agent-platform.tasks.shared-cpu-pressure while several owners share it")
                .register(registry);
    }

    @Bean
    PeriodicJob backlogSweeper(OwnerBacklog backlog, FairShare fairShare, BackgroundPriority background) {
        return new PeriodicJob("backlog-sweeper", Duration.ofMinutes(1), () -> {
            backlog.forgetIdle();
            fairShare.forgetIdle();
        }, background);
    }

    /**
     * Tasks just created, from the events the node's reader holds before the task projection commits them, or from the
     * store when the reader has moved past them.
     */
    @Bean
    FreshTasks freshTasks(RecentEvents recentEvents, JdbcStoredEvents storedEvents) {
        RecentEvents store = (aggregate, wait) -> Mono.fromCallable(() -> storedEvents.ofAggregate(aggregate, Instant.MAX).stream()
                        .map(event -> new RecentEvents.RecentEvent(event.getPayload(), ((DomainEventMessage<?>) event).getSequenceNumber(),
                                event.trackingToken().position().orElseThrow(), event.getTimestamp()))
                        .toList())
                .subscribeOn(Schedulers.boundedElastic())
                .filter(events -> !events.isEmpty());
        return new FreshTasks(recentEvents, store);
    }

    @Bean
    PeriodicJob taskSweeps(JdbcTemplate jdbc, EventStore eventStore, TaskDispatcher taskDispatcher,
            ConversationDispatcher conversationDispatcher, AgentRuntime agentRuntime, ChannelChunks channelChunks, Clock clock,
            PlatformProperties properties, BackgroundPriority background) {
        StartedTurns startedTurns = new StartedTurns(jdbc, eventStore, agentRuntime, taskDispatcher, conversationDispatcher, clock);
        TaskSweeper sweeper = new TaskSweeper(jdbc, taskDispatcher, startedTurns, agentRuntime, channelChunks, clock,
                properties.tasks().chunkRetention());
        return new PeriodicJob("task-sweeper", properties.operations().sweepInterval(), sweeper::sweep, background);
    }
}
