package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.agentplatform.infra.support.PlatformTest;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jpa.SQLStateResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.saga.repository.SagaStore;
import org.axonframework.modelling.saga.repository.jdbc.JdbcSagaStore;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.axonframework.updates.UpdateChecker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** Axon runs on the JDBC stores in PostgreSQL, with persistent deadlines, and never phones home. */
@PlatformTest
class AxonWiringTest {

    @Autowired
    ApplicationContext context;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void storesAreTheJdbcOnesOnPostgres() {
        assertThat(context.getBean(EventStorageEngine.class)).isInstanceOf(JdbcEventStorageEngine.class);
        assertThat(context.getBean(TokenStore.class)).isInstanceOf(JdbcTokenStore.class);
        assertThat(context.getBean(SagaStore.class)).isInstanceOf(JdbcSagaStore.class);
        assertThat(context.getBean(PersistenceExceptionResolver.class)).isInstanceOf(SQLStateResolver.class);
        assertThat(context.getBean(TransactionManager.class)).isInstanceOf(SpringTransactionManager.class);
    }

    @Test
    void deadlinesArePersistentInDbScheduler() {
        assertThat(context.getBean(DeadlineManager.class)).isInstanceOf(DbSchedulerDeadlineManager.class);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM scheduled_tasks", Integer.class)).isNotNull();
    }

    @Test
    void everyProcessorIsAPooledStreamingProcessor() {
        var processors = context.getBean(org.axonframework.config.Configuration.class).eventProcessingConfiguration().eventProcessors();
        assertThat(processors.keySet()).contains("instance-projection", "agent-projection", "operation-projection-view",
                "operation-dispatch", "operation-projection", "instance-lifecycle");
        assertThat(processors.values()).allMatch(processor -> processor instanceof PooledStreamingEventProcessor);
    }

    @Test
    void commandsFindTheirTargetWithoutReflectingOnEachCommand() {
        var configuration = context.getBean(org.axonframework.config.Configuration.class);
        // package-private in the command side: named, not referenced
        assertThat(configuration.getComponent(CommandTargetResolver.class).getClass().getSimpleName()).isEqualTo("CachedCommandTargets");
    }

    @Test
    void theUpdateCheckerIsNotRunning() {
        assertThat(context.getBeanNamesForType(UpdateChecker.class)).isEmpty();
    }
}
