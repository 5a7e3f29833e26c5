package org.agentplatform.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

/**
 * A service's unfinished tasks, counted on the bench's own connection to its database (opened on first use, once):
 * tasks of the read model still queued or running, through its partial indexes on those statuses, so the count costs
 * the same after a warm-up of a hundred thousand tasks as before it (a count of every task did not, and its
 * PostgreSQL CPU went into the figure per task).
 */
final class Backlog implements AutoCloseable {

    private final Service service;
    private Connection connection;

    Backlog(Service service) {
        this.service = service;
    }

    /** The bench's connection to the service's database. */
    Connection connection() throws SQLException, IOException {
        if (connection == null) {
            connection = DriverManager.getConnection(service.jdbcUrl("agent_platform"), "postgres", service.postgresPassword());
        }
        return connection;
    }

    long unfinished() throws SQLException, IOException {
        try (Statement statement = connection().createStatement();
             ResultSet count = statement.executeQuery("SELECT (SELECT count(*) FROM task_view WHERE status = 'queued')"
                     + " + (SELECT count(*) FROM task_view WHERE status = 'running')")) {
            count.next();
            return count.getLong(1);
        }
    }

    /**
     * Waits (at most {@code patience}) until every task created so far has finished; answers how many have not. The count
     * is asked every 100 ms, or every twenty times as long as it took (with thousands of tasks left it takes 10 ms and
     * more, on the cores the service drains them with).
     */
    long awaitDrained(Duration patience) throws Exception {
        Instant giveUp = Instant.now().plus(patience);
        long asked = System.nanoTime();
        long unfinished = unfinished();
        long took = System.nanoTime() - asked;
        while (unfinished > 0 && Instant.now().isBefore(giveUp)) {
            Thread.sleep(Math.max(100, took * 20 / 1_000_000));
            asked = System.nanoTime();
            unfinished = unfinished();
            took = System.nanoTime() - asked;
        }
        if (unfinished > 0) {
            System.out.println("bench: " + unfinished + " tasks still unfinished after " + patience);
        }
        return unfinished;
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
