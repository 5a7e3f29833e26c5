package org.agentplatform.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two builds of the service compared in one run ({@code --against OTHER_JAR}): both are started (each on its own
 * embedded PostgreSQL), warmed up in turns, then loaded in alternating bursts, A B A B ..., so that the box's drift,
 * which moves single runs by a third within minutes, falls on both alike. Each round's burst is the 32-connection
 * create burst carried to completion; a round reports creates/s, p99 and JVM and PostgreSQL CPU per task for each build,
 * and the summary the median of each figure and of the rounds' ratios B/A.
 */
final class Comparison {

    private static final String HOST = "127.0.0.1";

    /** One build, started and set up. */
    private static final class Build implements AutoCloseable {

        final String name;
        final Service service;
        final String key;
        final String agent;
        final Connection counting;

        Build(String name, Service service) throws Exception {
            this.name = name;
            this.service = service;
            try (HttpConnection first = new HttpConnection(HOST, service.port(), service.firstKey())) {
                key = new Platform(first).benchKey();
            }
            try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
                Platform platform = new Platform(http);
                agent = platform.echoAgent(platform.runningInstance());
            }
            counting = DriverManager.getConnection(service.jdbcUrl("agent_platform"), "postgres", service.postgresPassword());
        }

        String tasks() {
            return "/api/v1/agents/" + agent + "/tasks";
        }

        long unfinished() throws Exception {
            try (Statement statement = counting.createStatement();
                 ResultSet count = statement.executeQuery("SELECT (SELECT count(*) FROM task_view WHERE status = 'queued')"
                         + " + (SELECT count(*) FROM task_view WHERE status = 'running')")) {
                count.next();
                return count.getLong(1);
            }
        }

        void awaitDrained() throws Exception {
            Instant giveUp = Instant.now().plus(Duration.ofMinutes(5));
            while (unfinished() > 0 && Instant.now().isBefore(giveUp)) {
                Thread.sleep(100);
            }
        }

        @Override
        public void close() throws Exception {
            counting.close();
            service.close();
        }
    }

    /** What one burst of one build measured. */
    record Round(String build, double createsPerSecond, double p50, double p99, double completedPerSecond, double jvmMsPerTask,
            double postgresMsPerTask) {
    }

    private final int clients;
    private final Duration burst;
    private final int rounds;
    private final int warmupRounds;

    Comparison(int clients, Duration burst, int rounds, int warmupRounds) {
        this.clients = clients;
        this.burst = burst;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
    }

    /** Runs the comparison; its report goes to {@code report}. */
    void run(Path jarA, Path jarB, List<String> javaOptions, List<String> settings, Path scratch, Path logs, String name, Report report)
            throws Exception {
        System.out.println("bench: comparing A " + jarA + " and B " + jarB);
        try (Build a = new Build("A", Service.start(jarA, javaOptions, scratch.resolve("a"), logs.resolve(name + "-service-a.log"), settings));
             Build b = new Build("B", Service.start(jarB, javaOptions, scratch.resolve("b"), logs.resolve(name + "-service-b.log"), settings))) {
            for (int round = 1; round <= warmupRounds; round++) {
                for (Build build : List.of(a, b)) {
                    Load.closedLoop(HOST, build.service.port(), build.key, clients, Duration.ofSeconds(15), build.tasks(), 202,
                            n -> task("warm up " + n));
                    build.awaitDrained();
                }
                System.out.printf("bench: warm-up round %d of %d%n", round, warmupRounds);
            }
            List<Round> measured = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                // the order alternates too (A B, B A, ...), so neither build always runs right after the other's backlog
                List<Build> order = round % 2 == 1 ? List.of(a, b) : List.of(b, a);
                for (Build build : order) {
                    Round result = burst(build);
                    measured.add(result);
                    System.out.printf(Locale.ROOT, "bench: round %d %s: %.0f creates/s, p50 %.1f ms, p99 %.1f ms, %.0f completed/s,"
                                    + " JVM %.2f ms and PostgreSQL %.2f ms CPU per task%n", round, build.name, result.createsPerSecond(),
                            result.p50(), result.p99(), result.completedPerSecond(), result.jvmMsPerTask(), result.postgresMsPerTask());
                }
            }
            report(measured, jarA, jarB, report);
        }
    }

    private Round burst(Build build) throws Exception {
        double jvmBefore = build.service.jvmCpuSeconds();
        double postgresBefore = build.service.postgresCpuSeconds();
        long start = System.nanoTime();
        Load.Result result = Load.closedLoop(HOST, build.service.port(), build.key, clients, burst, build.tasks(), 202, n -> task("burst " + n));
        build.awaitDrained();
        double seconds = (System.nanoTime() - start) / 1e9;
        double tasks = Math.max(1, result.ok());
        return new Round(build.name, result.perSecond(), result.latency().p50(), result.latency().p99(), result.ok() / seconds,
                (build.service.jvmCpuSeconds() - jvmBefore) * 1000 / tasks, (build.service.postgresCpuSeconds() - postgresBefore) * 1000 / tasks);
    }

    private static void report(List<Round> measured, Path jarA, Path jarB, Report report) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("a", jarA.toString());
        json.put("b", jarB.toString());
        json.put("rounds", measured);
        String[] figures = {"creates/s", "p50 ms", "p99 ms", "completed/s", "JVM CPU ms per task", "PostgreSQL CPU ms per task"};
        Map<String, Object> medians = new LinkedHashMap<>();
        System.out.printf("%nfigure                              median A     median B   median B/A   B/A of the rounds (min..max)%n");
        for (int figure = 0; figure < figures.length; figure++) {
            List<Double> a = values(measured, "A", figure);
            List<Double> b = values(measured, "B", figure);
            List<Double> ratios = new ArrayList<>();
            for (int index = 0; index < Math.min(a.size(), b.size()); index++) {
                ratios.add(b.get(index) / a.get(index));
            }
            double ratio = median(ratios);
            medians.put(figures[figure], Map.of("a", median(a), "b", median(b), "b_over_a", ratio));
            System.out.printf(Locale.ROOT, "%-32s %11.2f %12.2f %12.3f   %.3f..%.3f%n", figures[figure], median(a), median(b), ratio,
                    ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
        }
        json.put("medians", medians);
        report.put("comparison", json);
    }

    private static List<Double> values(List<Round> measured, String build, int figure) {
        return measured.stream().filter(round -> round.build().equals(build)).map(round -> switch (figure) {
            case 0 -> round.createsPerSecond();
            case 1 -> round.p50();
            case 2 -> round.p99();
            case 3 -> round.completedPerSecond();
            case 4 -> round.jvmMsPerTask();
            default -> round.postgresMsPerTask();
        }).toList();
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static String task(String message) {
        return Platform.json(Map.of("message", message + "\n/echo deltas=2"));
    }
}
