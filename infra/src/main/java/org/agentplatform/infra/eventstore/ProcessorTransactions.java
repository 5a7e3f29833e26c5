package org.agentplatform.infra.eventstore;

import org.agentplatform.kernel.FrameworkReplacement;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The event processors' transactions: Spring's, committing without waiting for the WAL flush
 * ({@code SET LOCAL synchronous_commit = off}). A processor's transaction holds what its handlers wrote (read
 * models, the audit chain, saga state, parked letters) together with its token, so a crash of the database that
 * loses it loses both: the processor handles those events again from the older token, and its handlers are
 * idempotent (versions, unique rows). The events themselves are written by commands, whose commits still wait for
 * the flush. What it saves is the flush per processor batch, on the path of every read model's freshness.
 */
@FrameworkReplacement("Axon: the processors' TransactionManager")
final class ProcessorTransactions implements TransactionManager {

    private final TransactionManager transactions;
    private final JdbcTemplate jdbc;

    ProcessorTransactions(TransactionManager transactions, JdbcTemplate jdbc) {
        this.transactions = transactions;
        this.jdbc = jdbc;
    }

    @Override
    public Transaction startTransaction() {
        boolean outermost = !TransactionSynchronizationManager.isActualTransactionActive();
        Transaction transaction = transactions.startTransaction();
        if (outermost) {
            try {
                jdbc.execute("SET LOCAL synchronous_commit = off");
            } catch (RuntimeException failure) {
                transaction.rollback();
                throw failure;
            }
        }
        return transaction;
    }
}
