package org.agentplatform.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A service's tasks as the bench reads them on its own connection to its database (opened on first use, once): the
 * database's clock, create -> done of the tasks since an instant, and the unfinished tasks: those of the read model still
 * queued or running, counted through its partial indexes on those statuses, so the count costs
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

    /** The database's clock now, as text to compare the store's instants with. */
    String now() throws SQLException, IOException {
        try (Statement statement = connection().createStatement(); ResultSet now = statement.executeQuery("SELECT now()::text")) {
            now.next();
            return now.getString(1);
        }
    }

    /** Agent {@code agent}'s tasks created since {@code since} ({@link #now}): from their created to their completed instant, p50 and p99. */
    Map<String, Double> createToDone(String since, String agent) throws SQLException, IOException {
        try (var statement = connection().prepareStatement("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),"
                + " percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), count(*) FROM (SELECT extract(epoch FROM updated_at - created_at)"
                + " * 1000 AS ms FROM task_view WHERE created_at >= ?::timestamptz AND agent_id = ?::uuid AND status = 'completed') d")) {
            statement.setString(1, since);
            statement.setString(2, agent);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return Map.of("p50_ms", row.getDouble(1), "p99_ms", row.getDouble(2), "tasks", (double) row.getLong(3));
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }
}
