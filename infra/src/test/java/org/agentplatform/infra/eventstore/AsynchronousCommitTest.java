package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.agentplatform.infra.database.RuntimeDatabase;
import org.agentplatform.infra.support.ApiTest;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which transactions skip the wait for the WAL flush: the event processors' and the local runtime's do, by a setting
 * of their own (the test database runs without synchronous commit throughout, so the setting's source tells them
 * apart); every other transaction, the commands' with the event store's appends among them, keeps the server's.
 */
class AsynchronousCommitTest extends ApiTest {

    private static final String SOURCE = "SELECT source FROM pg_settings WHERE name = 'synchronous_commit'";

    @Autowired
    private TransactionManager transactions;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private RuntimeDatabase runtime;

    @Test
    void aProcessorsTransactionSetsItForItselfAndANestedOneJoinsIt() {
        ProcessorTransactions processor = new ProcessorTransactions(transactions, jdbc);
        Transaction batch = processor.startTransaction();
        try {
            assertThat(setting()).isEqualTo("off");
            assertThat(jdbc.queryForObject(SOURCE, String.class)).isEqualTo("session");
            Transaction nested = processor.startTransaction();
            nested.commit();
            assertThat(jdbc.queryForObject(SOURCE, String.class)).isEqualTo("session");
        } finally {
            batch.commit();
        }
        Transaction command = transactions.startTransaction();
        try {
            assertThat(jdbc.queryForObject(SOURCE, String.class)).isNotEqualTo("session");
        } finally {
            command.commit();
        }
    }

    @Test
    void theRuntimesConnectionsHaveItAndTheOthersDoNot() {
        assertThat(runtime.jdbc().queryForObject("SHOW synchronous_commit", String.class)).isEqualTo("off");
        assertThat(runtime.jdbc().queryForObject(SOURCE, String.class)).isEqualTo("session");
        assertThat(jdbc.queryForObject(SOURCE, String.class)).isNotEqualTo("session");
    }

    private String setting() {
        return jdbc.queryForObject("SHOW synchronous_commit", String.class);
    }
}
