package org.agentplatform.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the same PostgreSQL does on its own: single-row insert transactions at the same concurrency as the
 * load, with {@code pgbench} when it is installed, else a JDBC loop. Every figure of the report is also
 * given as a ratio to this, so runs on different machines compare.
 */
final class RawInsert {

    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");

    /** Transactions per second, and which tool measured them. */
    record Result(double txPerSecond, String tool) {
    }

    private RawInsert() {
    }

    static Result measure(Service service, int clients, Duration duration, Path scratch) throws Exception {
        String password = service.postgresPassword();
        try (Connection admin = DriverManager.getConnection(service.jdbcUrl("postgres"), "postgres", password);
             Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS bench_raw");
            statement.execute("CREATE DATABASE bench_raw");
        }
        try (Connection bench = DriverManager.getConnection(service.jdbcUrl("bench_raw"), "postgres", password);
             Statement statement = bench.createStatement()) {
            statement.execute("CREATE TABLE raw_insert (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL,"
                    + " created_at TIMESTAMPTZ NOT NULL DEFAULT now())");
        }
        try {
            return onPath("pgbench") ? pgbench(service, password, clients, duration, scratch) : jdbc(service, password, clients, duration);
        } finally {
            try (Connection admin = DriverManager.getConnection(service.jdbcUrl("postgres"), "postgres", password);
                 Statement statement = admin.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS bench_raw");
            }
        }
    }

    private static Result pgbench(Service service, String password, int clients, Duration duration, Path scratch)
            throws IOException, InterruptedException {
        Path script = scratch.resolve("raw-insert.sql");
        Files.writeString(script, "INSERT INTO raw_insert (payload) VALUES ('a task message of a typical length');\n");
        ProcessBuilder builder = new ProcessBuilder("pgbench", "-n", "-h", "127.0.0.1", "-p", Integer.toString(service.postgresPort()),
                "-U", "postgres", "-c", Integer.toString(clients), "-j", "2", "-T", Long.toString(duration.toSeconds()), "-f",
                script.toString(), "bench_raw").redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", password);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS);
        Matcher tps = TPS.matcher(output);
        if (!tps.find()) {
            throw new IllegalStateException("pgbench said: " + output);
        }
        return new Result(Double.parseDouble(tps.group(1)), "pgbench");
    }

    private static Result jdbc(Service service, String password, int clients, Duration duration) throws Exception {
        AtomicLong done = new AtomicLong();
        String url = service.jdbcUrl("bench_raw");
        long end = System.nanoTime() + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try (Connection connection = DriverManager.getConnection(url, "postgres", password);
                     PreparedStatement insert = connection.prepareStatement("INSERT INTO raw_insert (payload) VALUES (?)")) {
                    insert.setString(1, "a task message of a typical length");
                    while (System.nanoTime() < end) {
                        insert.executeUpdate();
                        done.incrementAndGet();
                    }
                } catch (SQLException failure) {
                    throw new IllegalStateException(failure);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return new Result(done.get() / (double) duration.toSeconds(), "jdbc loop");
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(":")) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}
