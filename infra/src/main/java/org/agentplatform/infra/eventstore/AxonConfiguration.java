package org.agentplatform.infra.eventstore;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.agentplatform.api.processor.NodeProcessors;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.query.feed.ChangeFeed;
import org.axonframework.common.AxonThreadFactory;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventBusSpanFactory;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jpa.SQLStateResolver;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.JdbcSagaStore;
import org.axonframework.modelling.saga.repository.jdbc.PostgresSagaSqlSchema;
import org.axonframework.modelling.saga.repository.jdbc.SagaSchema;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import reactor.core.Disposable;

/**
 * Axon without Axon Server, on PostgreSQL: JDBC event store, token store and saga store (tables from
 * Flyway), unique-key violations resolved as {@code ConcurrencyException}, an explicit Spring
 * transaction manager, pooled streaming processors sequenced per aggregate that park a failing
 * aggregate's events in a dead-letter queue and go on with the others, and who-did-it metadata
 * copied from every command onto the events it causes.
 */
@Configuration(proxyBeanMethods = false)
public class AxonConfiguration {

    /** Axon's defaults, stated: the storage engine and the shared stream advance tokens by the same rule. */
    static final GapRule GAPS = new GapRule(10_000, Duration.ofMinutes(1));
    /**
     * Events the shared stream keeps in memory for processors that are nearly caught up: under a burst's 4,500 events a
     * second, about a fifth of a second's worth, so that few of them are still alive (and copied) at a young collection; a
     * processor further behind reads the store on its own. Measured against 2,048 and 8,192 (docs/performance.md).
     */
    private static final int SHARED_WINDOW = 1024;

    /** Threads of a processor's work packages (Axon's default). */
    private static final int WORKER_THREADS = 4;
    /** How often a processor looks for unclaimed segments (Axon's default is 5 s). */
    private static final Duration TOKEN_CLAIM_INTERVAL = Duration.ofSeconds(1);
    /** Bounds of each processor's dead-letter queue; past them a failing event stalls its processor again. */
    private static final int MAX_PARKED_SEQUENCES = 100_000;
    private static final int MAX_PARKED_PER_SEQUENCE = 10_000;

    /** PostgreSQL's unique_violation; the default resolver does not recognise it. */
    private static final String UNIQUE_VIOLATION = "23505";

    /** Axon's default names are camelCase; our tables (V1__axon_stores.sql) use snake_case like every other table. */
    public static final EventSchema EVENTS = EventSchema.builder()
            .eventTable("domain_event_entry")
            .snapshotTable("snapshot_event_entry")
            .globalIndexColumn("global_index")
            .timestampColumn("time_stamp")
            .eventIdentifierColumn("event_identifier")
            .aggregateIdentifierColumn("aggregate_identifier")
            .sequenceNumberColumn("sequence_number")
            .typeColumn("type")
            .payloadTypeColumn("payload_type")
            .payloadRevisionColumn("payload_revision")
            .payloadColumn("payload")
            .metaDataColumn("meta_data")
            .build();
    private static final TokenSchema TOKENS = TokenSchema.builder()
            .setTokenTable("token_entry")
            .setProcessorNameColumn("processor_name")
            .setSegmentColumn("segment")
            .setTokenColumn("token")
            .setTokenTypeColumn("token_type")
            .setTimestampColumn("timestamp")
            .setOwnerColumn("owner")
            .build();
    private static final SagaSchema SAGAS = SagaSchema.builder()
            .sagaEntryTable("saga_entry")
            .revisionColumn("revision")
            .serializedSagaColumn("serialized_saga")
            .associationValueEntryTable("association_value_entry")
            .associationKeyColumn("association_key")
            .associationValueColumn("association_value")
            .sagaIdColumn("saga_id")
            .sagaTypeColumn("saga_type")
            .build();

    @Bean
    PersistenceExceptionResolver persistenceExceptionResolver() {
        return new SQLStateResolver(UNIQUE_VIOLATION);
    }

    @Bean
    TransactionManager axonTransactionManager(PlatformTransactionManager transactionManager) {
        return new SpringTransactionManager(transactionManager);
    }

    @Bean
    EventStorageEngine eventStorageEngine(
            Serializer defaultSerializer,
            @Qualifier("eventSerializer") Serializer eventSerializer,
            PersistenceExceptionResolver persistenceExceptionResolver,
            ConnectionProvider connectionProvider,
            TransactionManager transactionManager,
            org.axonframework.config.Configuration configuration) {
        return new SnapshotFreeStorageEngine(JdbcEventStorageEngine.builder()
                .snapshotSerializer(defaultSerializer)
                .eventSerializer(eventSerializer)
                .upcasterChain(configuration.upcasterChain())
                .snapshotFilter(configuration.snapshotFilter())
                .persistenceExceptionResolver(persistenceExceptionResolver)
                .connectionProvider(connectionProvider)
                .transactionManager(transactionManager)
                .schema(EVENTS)
                .dataType(byte[].class), GAPS);
    }

    /** The event store without Axon's own fetching thread: processors read it through {@link SharedEventStream}. */
    @Bean(name = "eventBus")
    @Qualifier("eventStore")
    EmbeddedEventStore eventStore(EventStorageEngine storageEngine, org.axonframework.config.Configuration configuration) {
        return EmbeddedEventStore.builder()
                .storageEngine(storageEngine)
                .messageMonitor(configuration.messageMonitor(EventStore.class, "eventStore"))
                .spanFactory(configuration.getComponent(EventBusSpanFactory.class))
                .optimizeEventConsumption(false)
                .build();
    }

    @Bean
    TokenStore tokenStore(ConnectionProvider connectionProvider, Serializer serializer) {
        return JdbcTokenStore.builder()
                .connectionProvider(connectionProvider)
                .schema(TOKENS)
                .serializer(serializer)
                .contentType(byte[].class)
                .build();
    }

    @Bean
    SagaStore<Object> sagaStore(ConnectionProvider connectionProvider, Serializer serializer) {
        PostgresSagaSqlSchema schema = new PostgresSagaSqlSchema(SAGAS);
        schema.setExclusiveLoad(true);
        return JdbcSagaStore.builder()
                .connectionProvider(connectionProvider)
                .sqlSchema(schema)
                .serializer(serializer)
                .build();
    }

    @Bean(destroyMethod = "close")
    CommitAnnouncer commitAnnouncer(JdbcTemplate jdbc) {
        return new CommitAnnouncer(jdbc);
    }

    /**
     * Processors read the store through one {@link SharedEventStream} per node, woken at once by this node's commits and by
     * the other nodes' (their {@link CommitAnnouncer} notifications), and reading it every {@code events.poll-interval}
     * besides in case a notification was lost.
     */
    @Bean
    ConfigurerModule pooledProcessorsSequencedPerAggregate(ObjectProvider<EventStorageEngine> storageEngine,
            ProcessorFailures failures, CommitAnnouncer announcer, ObjectProvider<ChangeFeed> feed, JdbcTemplate jdbc,
            PlatformProperties properties, BackgroundPriority background, WindowRecentEvents recentEvents, MeterRegistry meters) {
        return configurer -> configurer.eventProcessing(processing -> processing
                .configureDefaultStreamableMessageSource(config -> {
                    SharedEventStream source = new SharedEventStream(config.eventStore(), storageEngine.getObject(), SHARED_WINDOW, GAPS,
                            properties.events().pollInterval(), properties.events().readPacing(), announcer::committed, background);
                    recentEvents.attach(source);
                    FunctionCounter.builder("agent.platform.events.reads.paced", source, SharedEventStream::pacedReads)
                            .description("Reads of the event store this node's reader put off to batch a busy moment's commits")
                            .register(meters);
                    Disposable othersCommits = feed.getObject().on(CommitAnnouncer.CHANNEL, CommitAnnouncer.KEY)
                            .filter(change -> announcer.fromOtherNode(change.payload()))
                            .subscribe(change -> source.wake(), failure -> LoggerFactory.getLogger(CommitAnnouncer.class).atWarn()
                                    .log("other nodes' commits are noticed by polling only: " + failure.getMessage()));
                    config.onShutdown(othersCommits::dispose);
                    config.onShutdown(source::close);
                    return source;
                })
                .usingPooledStreamingEventProcessors((config, builder) -> builder
                        .transactionManager(new ProcessorTransactions(config.getComponent(TransactionManager.class), jdbc))
                        // Axon's own pools, as its configuration makes them, on background threads
                        .coordinatorExecutor(name -> backgroundPool(config, background, "Coordinator[" + name + "]", 1))
                        .workerExecutor(name -> backgroundPool(config, background, "WorkPackage[" + name + "]", WORKER_THREADS))
                        .batchSize(64)
                        // a segment whose batch failed (before its event was parked) is claimed again within a second
                        .tokenClaimInterval(TOKEN_CLAIM_INTERVAL.toMillis())
                        .initialSegmentCount(2)
                        .maxClaimedSegments(2))
                .registerDefaultSequencingPolicy(config -> SequentialPerAggregatePolicy.instance())
                // a failing handler's exception reaches the dead-letter queue (deadLetterQueues), which parks the event
                .registerDefaultListenerInvocationErrorHandler(config -> PropagatingErrorHandler.instance())
                // a batch that failed anyway is rolled back and retried, and counted for health
                .registerDefaultErrorHandler(config -> failures));
    }

    /** The events the node's reader read a moment ago, for streams opened on resources just created. */
    @Bean
    WindowRecentEvents recentEvents() {
        return new WindowRecentEvents();
    }

    /** A processor's scheduled pool of {@code threads} background threads, shut down with Axon. */
    private static ScheduledExecutorService backgroundPool(org.axonframework.config.Configuration config, BackgroundPriority background,
            String name, int threads) {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(threads, background.lowering(new AxonThreadFactory(name)));
        config.onShutdown(pool::shutdown);
        return pool;
    }

    /** Savepoints around event handlers once one has failed, so that the failing event alone is parked. */
    @Bean
    SavepointPerEvent savepointPerEvent(PlatformTransactionManager transactionManager) {
        return new SavepointPerEvent(transactionManager);
    }

    @Bean
    GlobalIndexAsLong globalIndexAsLong() {
        return new GlobalIndexAsLong();
    }

    /**
     * A JDBC sequenced dead-letter queue for every processing group: a handler that fails parks its event and the
     * later events of that aggregate, and the processor goes on with the others (see {@link ProcessorDeadLetters}). Each
     * segment remembers which aggregates it has parked, so an event costs no query of the queue.
     */
    @Bean
    ConfigurerModule deadLetterQueues(ListableBeanFactory beans, ObjectProvider<ConnectionProvider> connections) {
        return configurer -> configurer.eventProcessing(processing -> {
            for (String group : ProcessorDeadLetters.processingGroups(beans)) {
                processing.registerDeadLetterQueue(group, config -> JdbcSequencedDeadLetterQueue.<EventMessage<?>>builder()
                        .processingGroup(group)
                        .connectionProvider(connections.getObject())
                        .transactionManager(config.getComponent(TransactionManager.class))
                        .schema(ProcessorDeadLetters.SCHEMA)
                        .genericSerializer(config.serializer())
                        .eventSerializer(config.eventSerializer())
                        .maxSequences(MAX_PARKED_SEQUENCES)
                        .maxSequenceSize(MAX_PARKED_PER_SEQUENCE)
                        .build());
                processing.registerDeadLetteringEventHandlerInvokerConfiguration(group,
                        (config, builder) -> builder.enableSequenceIdentifierCache());
            }
            processing.registerDefaultDeadLetterPolicy(config -> ProcessorDeadLetters::decide);
        });
    }

    @Bean
    ProcessorDeadLetterRetries deadLetterRetries(ChangeFeed feed, JdbcTemplate jdbc, EventProcessingConfiguration processing,
            ListableBeanFactory beans) {
        return new ProcessorDeadLetterRetries(feed, jdbc, processing, ProcessorDeadLetters.processingGroups(beans));
    }

    @Bean
    ProcessorFailures processorFailures(JdbcTemplate jdbc, Clock clock) {
        return new ProcessorFailures(jdbc, clock);
    }

    @Bean
    StoreHead storeHead(JdbcTemplate jdbc) {
        return new StoreHead(jdbc);
    }

    @Bean
    NodeProcessors nodeProcessors(EventProcessingConfiguration processing, StoreHead storeHead, JdbcTemplate jdbc) {
        return new ProcessorOverview(processing, storeHead, jdbc);
    }

    @Bean
    CorrelationDataProvider whoDidIt() {
        return new WhoDidIt();
    }
}
