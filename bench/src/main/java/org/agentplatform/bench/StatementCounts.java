package org.agentplatform.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What PostgreSQL did for a phase, from {@code pg_stat_statements} and {@code pg_stat_database}: statements, commits
 * and statement execution and planning time per task, and the statements that cost most. Unlike the rates, these counts barely
 * move with the box's speed, so a change of a few percent shows here when the bench's rates cannot resolve it. The
 * service must run with {@code shared_preload_libraries=pg_stat_statements} ({@link #SERVICE_SETTINGS}).
 */
final class StatementCounts {

    /** The service's settings that load the extension into its embedded PostgreSQL. */
    static final List<String> SERVICE_SETTINGS = List.of(
            "--agent-platform.embedded-postgres.settings.shared_preload_libraries=pg_stat_statements",
            "--agent-platform.embedded-postgres.settings[pg_stat_statements.track]=all",
            "--agent-platform.embedded-postgres.settings[pg_stat_statements.max]=1000",
            "--agent-platform.embedded-postgres.settings[pg_stat_statements.track_planning]=on");

    private final Connection connection;
    private long commitsBefore;

    /** A counted statement: how often, its mean execution time, its planning time (all its plans), and its text (cut). */
    record Counted(long calls, double meanMs, double totalMs, double planMs, long rows, String query) {
    }

    StatementCounts(Connection connection) throws SQLException {
        this.connection = connection;
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
    }

    /** Starts counting from zero. */
    void reset() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_stat_statements_reset()");
            commitsBefore = commits(statement);
        }
    }

    /** Per task of {@code tasks} since {@link #reset}: a JSON-ready map; the statements costing most go to {@code file}. */
    Map<String, Object> perTask(long tasks, Path file) throws SQLException, IOException {
        List<Counted> counted = new ArrayList<>();
        long commits;
        try (Statement statement = connection.createStatement()) {
            commits = commits(statement) - commitsBefore;
            try (ResultSet rows = statement.executeQuery("SELECT calls, total_exec_time, rows, query, total_plan_time FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    + " AND query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time + total_plan_time DESC")) {
                while (rows.next()) {
                    long calls = rows.getLong(1);
                    double total = rows.getDouble(2);
                    counted.add(new Counted(calls, total / Math.max(1, calls), total, rows.getDouble(5), rows.getLong(3),
                            rows.getString(4).replaceAll("\\s+", " ")));
                }
            }
        }
        double per = Math.max(1, tasks);
        long calls = counted.stream().mapToLong(Counted::calls).sum();
        double totalMs = counted.stream().mapToDouble(Counted::totalMs).sum();
        double planMs = counted.stream().mapToDouble(Counted::planMs).sum();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%d tasks: %.2f statements, %.2f commits, %.3f ms of statement execution and %.3f ms of planning per task%n%n"
                        + "calls/task  mean ms  total ms  plan ms  rows/call  statement%n", tasks, calls / per, commits / per, totalMs / per,
                planMs / per));
        for (Counted statement : counted) {
            text.append(String.format(Locale.ROOT, "%10.3f %8.3f %9.0f %8.0f %10.1f  %s%n", statement.calls() / per, statement.meanMs(),
                    statement.totalMs(), statement.planMs(), statement.rows() / (double) Math.max(1, statement.calls()),
                    statement.query().length() > 400 ? statement.query().substring(0, 400) + "..." : statement.query()));
        }
        Files.writeString(file, text);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("tasks", tasks);
        json.put("statements_per_task", calls / per);
        json.put("commits_per_task", commits / per);
        json.put("statement_execution_ms_per_task", totalMs / per);
        json.put("statement_planning_ms_per_task", planMs / per);
        json.put("report", file.getFileName().toString());
        return json;
    }

    private static long commits(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            row.next();
            return row.getLong(1);
        }
    }
}
