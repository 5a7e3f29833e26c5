package org.agentplatform.infra.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The local runtime's own way into PostgreSQL: a pool whose transactions commit without waiting for the WAL flush
 * ({@code synchronous_commit = off}). The runtime's rows (its turns, their streamed chunks and outcomes, its instances'
 * state) are always written before it reports to the platform, and a report is a command whose commit does wait for
 * the flush, which makes every earlier commit durable too (PostgreSQL flushes its log in order). So a crash of the
 * database loses only runtime writes that nothing reported yet: a turn then runs again (the sweepers hand back started
 * turns with no record, and take over turns whose node went silent), a chunk is written again (they are unique per
 * turn and sequence). What it saves is the flush per runtime write, about half the cost of a one-row transaction.
 * It is a separate pool, not a bean of type {@code DataSource}: Spring Boot's JDBC set-up keeps the main one.
 */
public final class RuntimeDatabase implements AutoCloseable {

    private final HikariDataSource pool;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    private RuntimeDatabase(HikariDataSource pool) {
        this.pool = pool;
        this.jdbc = new JdbcTemplate(pool);
        this.transactions = new TransactionTemplate(new JdbcTransactionManager(pool));
    }

    /** A pool of up to {@code size} connections to {@code endpoint}, committing asynchronously. */
    public static RuntimeDatabase open(DatabaseEndpoint endpoint, int size) {
        HikariConfig config = DatabaseConfiguration.hikari(endpoint);
        config.setPoolName("runtime");
        config.setMaximumPoolSize(size);
        config.setConnectionInitSql("SET synchronous_commit = off");
        return new RuntimeDatabase(new HikariDataSource(config));
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** Transactions on this pool (a {@link #jdbc()} statement inside one takes part in it). */
    public TransactionTemplate transactions() {
        return transactions;
    }

    @Override
    public void close() {
        pool.close();
    }
}
