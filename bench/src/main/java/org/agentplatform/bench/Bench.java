package org.agentplatform.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The benchmark suite: starts the service jar on a fresh embedded PostgreSQL and measures, in one run,
 * raw PostgreSQL inserts, task creation (one connection and many), tasks carried to completion and the
 * backlog, invoke round trips, create-to-first-SSE-frame (at rest and under load), the latency-vs-load
 * curve, conversation turns, webhook callbacks, held SSE streams and projection replay, with the JVM's CPU per task.
 */
public final class Bench {

    private static final String HOST = "127.0.0.1";
    /** The service's settings in every run: webhooks may call the bench's own sink on this box. */
    /**
     * The bench's one owner may leave a backlog past the default bound on unfinished tasks (the burst accepts faster than
     * the node completes): the phases measure what the node accepts and carries, so the bound is out of their way.
     */
    private static final List<String> SERVICE_SETTINGS = List.of("--agent-platform.webhooks.allowed-networks=127.0.0.1/32",
            "--agent-platform.tasks.max-unfinished-per-owner=100000000");
    /**
     * Phases on a node of their own that need nothing of the first when run without its phases ({@code --only audit}, {@code
     * --only neighbours}: the flood then comes at 500/s, as no sustained rate was measured): the first node is not started.
     */
    private static final java.util.Set<String> OWN_NODE = java.util.Set.of("audit", "neighbours");

    /** The settings a node ships with: the neighbours phase runs on one, so a flooding owner meets the bound on its backlog. */
    private static final List<String> SHIPPED_SETTINGS = List.of();
    /** Held streams below which the memory of one is not told: the heap and the process move by megabytes on their own. */
    private static final int MEMORY_RESOLVING_STREAMS = 1_000;

    /** How much of everything: the full run, or a seconds-long smoke that proves the suite works. */
    private record Sizes(int clients, Duration rawInsert, int warmup, int singleCreates, Duration burst, int invokes, int sseSamples,
            double backgroundRate, List<Double> curveRates, Duration curveStep, int webhookTasks, int heldStreams, Duration drainPatience) {

        static Sizes full() {
            return new Sizes(32, Duration.ofSeconds(10), 3000, 1000, Duration.ofSeconds(20), 200, 200, 300,
                    List.of(100.0, 250.0, 500.0, 750.0, 1000.0, 1250.0, 1500.0, 2000.0), Duration.ofSeconds(5), 1000, 10_000,
                    Duration.ofMinutes(5));
        }

        static Sizes smoke() {
            return new Sizes(8, Duration.ofSeconds(2), 50, 30, Duration.ofSeconds(2), 10, 10, 20, List.of(20.0, 40.0),
                    Duration.ofSeconds(1), 10, 50, Duration.ofMinutes(2));
        }
    }

    private final Path serviceJar;
    /** JVM options the service is started with besides the JFR stack depth (none by default: the jar as the README runs it). */
    private final List<String> javaOptions;
    private final Path out;
    private final boolean smoke;
    private final boolean profile;
    /** Whether the service's PostgreSQL counts statements ({@link StatementCounts}) for the burst. */
    private final boolean statements;
    private final Sizes sizes;
    private final Report report = new Report();
    private final List<String> only;

    private Service service;
    private String key;
    private String agent;
    private String instance;
    /** The service's unfinished tasks, on the bench's own connection to its database. */
    private Backlog backlog;
    /** Tasks carried to completion per second in the burst phase (0 until it ran). */
    private double sustainedPerSecond;
    /** The cold phase: fresh starts with and without the ahead-of-time cache, against the warm service. */
    private final Cold cold;

    private Bench(Path serviceJar, List<String> javaOptions, Path out, boolean smoke, boolean profile, boolean statements,
            List<Double> curve, List<String> only) {
        this.only = only;
        this.statements = statements;
        this.javaOptions = javaOptions;
        this.serviceJar = serviceJar;
        this.out = out;
        this.smoke = smoke;
        this.profile = profile;
        Sizes chosen = smoke ? Sizes.smoke() : Sizes.full();
        this.sizes = curve == null ? chosen : new Sizes(chosen.clients(), chosen.rawInsert(), chosen.warmup(), chosen.singleCreates(),
                chosen.burst(), chosen.invokes(), chosen.sseSamples(), chosen.backgroundRate(), curve, chosen.curveStep(),
                chosen.webhookTasks(), chosen.heldStreams(), chosen.drainPatience());
        this.cold = new Cold(serviceJar, javaOptions, SERVICE_SETTINGS, smoke, sizes.clients(), report);
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of("infra/target/agent-platform.jar");
        Path out = Path.of("bench/results");
        boolean smoke = false;
        boolean profile = false;
        boolean statements = false;
        List<Double> curve = null;
        List<String> only = null;
        List<String> javaOptions = new ArrayList<>();
        Path against = null;
        List<String> againstOptions = new ArrayList<>();
        int rounds = 6;
        for (int index = 0; index < args.length; index++) {
            switch (args[index]) {
                case "--service-jar" -> jar = Path.of(args[++index]);
                case "--out" -> out = Path.of(args[++index]);
                case "--smoke" -> smoke = true;
                case "--profile" -> profile = true;
                case "--statements" -> statements = true;
                case "--curve" -> curve = Stream.of(args[++index].split(",")).map(Double::valueOf).toList();
                case "--only" -> only = List.of(args[++index].split(","));
                case "--service-java-option" -> javaOptions.add(args[++index]);
                case "--against" -> against = Path.of(args[++index]);
                case "--against-java-option" -> againstOptions.add(args[++index]);
                case "--rounds" -> rounds = Integer.parseInt(args[++index]);
                default -> throw new IllegalArgumentException("usage: bench [--smoke] [--profile] [--statements] [--curve RATE,RATE...]"
                        + " [--only raw,http,single,burst,invoke,sustained,neighbours,sse,nodes,conversation,terminal,curve,webhooks,streams,replay,cold,audit] [--service-jar JAR] [--service-java-option OPTION]... [--out DIR]"
                        + " | --against OTHER_JAR [--against-java-option OPTION]... [--rounds N]");
            }
        }
        if (against != null) {
            List<String> optionsB = new ArrayList<>(javaOptions);
            optionsB.addAll(againstOptions);
            compare(jar, against, javaOptions, optionsB, out, smoke, rounds);
            return;
        }
        new Bench(jar, javaOptions, out, smoke, profile, statements, curve, only).run();
    }

    /**
     * {@code --against}: the two jars in alternating bursts ({@link Comparison}); A is {@code --service-jar}, B the other
     * (which may be the same jar, started with further options: {@code --against-java-option}).
     */
    private static void compare(Path jarA, Path jarB, List<String> javaOptions, List<String> optionsB, Path out, boolean smoke, int rounds)
            throws Exception {
        Files.createDirectories(out);
        Path scratch = Files.createTempDirectory("agent-platform-bench");
        String name = "compare-" + stamp();
        Report report = new Report();
        report.put("run", name);
        report.put("machine", machine());
        report.put("service_java_options", javaOptions);
        report.put("service_java_options_b", optionsB);
        Comparison comparison = smoke ? new Comparison(8, Duration.ofSeconds(2), 2, 1, 5, 20, 20, Duration.ofSeconds(2))
                : new Comparison(32, Duration.ofSeconds(10), rounds, 8, 100, 300, 300, Duration.ofSeconds(30));
        comparison.run(jarA, jarB, javaOptions, optionsB, SERVICE_SETTINGS, scratch, out, name, report);
        report.write(out.resolve(name + ".json"));
        System.out.println("bench: report " + out.resolve(name + ".json"));
        deleteRecursively(scratch);
    }

    private void run() throws Exception {
        Files.createDirectories(out);
        Path scratch = Files.createTempDirectory("agent-platform-bench");
        String stamp = stamp();
        String name = (smoke ? "smoke-" : "run-") + stamp;
        report.put("run", name);
        report.put("mode", smoke ? "smoke" : "full");
        report.put("machine", machine());
        report.put("service_java_options", javaOptions);
        if (only == null || !OWN_NODE.containsAll(only)) {
            onFirstNode(scratch, name);
        }
        if (runs("replay")) {
            replay(scratch.resolve("data"), out.resolve(name + "-rebuild.log"));
        }
        if (runs("cold")) {
            cold.run(scratch, out, name);
        }
        if (runs("audit")) {
            auditLog(scratch.resolve("audit-data"), out.resolve(name + "-audit-service.log"));
        }
        if (runs("neighbours")) {
            onShippedNode(scratch.resolve("neighbours-data"), out.resolve(name + "-neighbours-service.log"),
                    out.resolve(name + "-neighbours-service.jfr"), this::neighbours);
        }
        report.print(System.out);
        Path json = out.resolve(name + ".json");
        report.write(json);
        Files.copy(json, out.resolve(smoke ? "latest-smoke.json" : "latest.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("bench: report " + json + ", chart " + out.resolve(name + "-latency-vs-load.png"));
        deleteRecursively(scratch);
    }

    /** The first node and the phases that load it (all but those on a node of their own, {@link #OWN_NODE}). */
    private void onFirstNode(Path scratch, String name) throws Exception {
        Path log = out.resolve(name + "-service.log");
        System.out.println("bench: starting " + serviceJar + " (log: " + log + ")");
        List<String> settings = new ArrayList<>(SERVICE_SETTINGS);
        if (statements) {
            settings.addAll(StatementCounts.SERVICE_SETTINGS);
        }
        try (Service started = Service.start(serviceJar, javaOptions, scratch.resolve("data"), log, settings)) {
            service = started;
            backlog = new Backlog(service);
            setUp();
            if (runs("raw")) {
                rawInserts(scratch);
            }
            warmUp("warm_up");
            if (runs("cold")) {
                cold.measureWarm(service, key, agent);
            }
            if (profile) {
                service.startProfile();
            }
            String before = metrics();
            if (runs("http")) {
                authenticatedReads();
            }
            if (runs("single")) {
                singleConnectionCreates();
            }
            if (runs("burst")) {
                concurrentCreatesAndCompletion(name);
            }
            if (runs("invoke")) {
                invokes();
            }
            if (runs("sustained")) {
                sustained(name);
            }
            if (runs("sse")) {
                createToFirstFrame("at_rest", 0);
                createToFirstFrame("under_load", sizes.backgroundRate());
            }
            if (runs("nodes")) {
                crossNode(scratch, name);
            }
            if (runs("conversation")) {
                conversationTurns();
            }
            if (runs("terminal")) {
                terminals();
            }
            if (runs("curve")) {
                latencyCurve(name);
            }
            if (runs("webhooks")) {
                webhooks();
            }
            if (runs("streams")) {
                heldStreams();
            }
            report.put("metrics_moved", movedMetrics(before, metrics()));
            if (profile) {
                service.stopProfile(out.resolve(name + "-service.jfr"));
            }
        } finally {
            backlog.close();
        }
    }

    /**
     * Runs {@code phase} on a node of its own started with the shipped settings ({@link #SHIPPED_SETTINGS}: the other phases
     * lift the bound on an owner's backlog to measure whole bursts) and warmed up as the first; the first node has stopped.
     * With {@code --profile} the phase is recorded to {@code recording} (JFR), the warm-up not.
     */
    private void onShippedNode(Path dataDir, Path log, Path recording, Work phase) throws Exception {
        System.out.println("bench: starting a node with the shipped settings (log: " + log + ")");
        try (Service started = Service.start(serviceJar, javaOptions, dataDir, log, SHIPPED_SETTINGS)) {
            service = started;
            backlog = new Backlog(service);
            try {
                setUp();
                warmUp("neighbours_node_warm_up");
                if (profile) {
                    service.startProfile();
                }
                phase.run();
                if (profile) {
                    service.stopProfile(recording);
                }
            } finally {
                backlog.close();
            }
        }
    }

    /**
     * The audit log as it grows ({@link AuditLog}), on a node of its own: the cost per appended event and the proofs' size
     * and time at 10k, 100k, 1M and 3M events (2k and 10k in the smoke).
     */
    private void auditLog(Path dataDir, Path log) throws Exception {
        System.out.println("bench: starting a node for the audit log (log: " + log + ")");
        try (Service started = Service.start(serviceJar, javaOptions, dataDir, log, SERVICE_SETTINGS)) {
            Platform.Target target = Platform.setUp(HOST, started);
            try (HttpConnection http = new HttpConnection(HOST, started.port(), target.key())) {
                long[] sizes = smoke ? new long[] {2_000, 10_000} : new long[] {10_000, 100_000, 1_000_000, 3_000_000};
                List<AuditLog.Point> points = new AuditLog(started, http, smoke ? 1_000 : 10_000, smoke ? 5 : 41)
                        .measure(target.instance(), sizes);
                report.put("audit_log", points.stream().map(AuditLog::json).toList());
                for (AuditLog.Point point : points) {
                    String at = String.format("audit log at %,d events: ", point.size());
                    int logarithm = 64 - Long.numberOfLeadingZeros(point.size() - 1);
                    report.atMost(at + "append per event", point.appendMicrosPerEvent(), "us", null);
                    report.atMost(at + "inclusion proof hashes", point.inclusionHashes(), "", (double) logarithm);
                    report.atMost(at + "inclusion proof p50", point.inclusionMillisP50(), "ms", null);
                    report.atMost(at + "consistency proof hashes", point.consistencyHashes(), "", 2.0 * logarithm);
                    report.atMost(at + "consistency proof p50", point.consistencyMillisP50(), "ms", null);
                }
                report.atMost("audit log append per event, largest log / smallest", points.getLast().appendMicrosPerEvent()
                        / points.getFirst().appendMicrosPerEvent(), "x", 2.0);
            }
        }
    }

    /** The run's name stamp: now, in UTC. */
    private static String stamp() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
    }

    private boolean runs(String phase) {
        return only == null || only.contains(phase);
    }

    private void setUp() throws Exception {
        Platform.Target target = Platform.setUp(HOST, service);
        key = target.key();
        instance = target.instance();
        agent = target.agent();
    }

    private void rawInserts(Path scratch) throws Exception {
        RawInsert.Result raw = RawInsert.measure(service, sizes.clients(), sizes.rawInsert(), scratch);
        report.raw(raw.txPerSecond());
        report.put("raw_inserts", Map.of("tx_per_second", raw.txPerSecond(), "tool", raw.tool(), "clients", sizes.clients()));
        report.atLeast("raw PostgreSQL 1-row insert tx/s (" + raw.tool() + ", " + sizes.clients() + " clients)", raw.txPerSecond(),
                "tx/s", null, true);
        System.out.printf("bench: raw inserts %.0f tx/s (%s)%n", raw.txPerSecond(), raw.tool());
    }

    /**
     * Warms the service until its JIT has settled: rounds of the measured requests (creates, reads, invokes),
     * each followed by a pause in which the compiler works off its queue, until a round spends less than a
     * tenth of its time compiling. On two busy cores the C2 compiler thread is starved by the load, so a JVM
     * that is only loaded stays half-compiled for many minutes; the figures are meant for a warm service. Reported under
     * {@code reportKey}.
     */
    private void warmUp(String reportKey) throws Exception {
        long start = System.nanoTime();
        Duration round = Duration.ofSeconds(smoke ? 1 : 15);
        int rounds = 0;
        double compilingShare;
        do {
            rounds++;
            double compiledBefore = compilationMillis();
            long roundStart = System.nanoTime();
            Thread reads = Thread.ofPlatform().start(() -> quietly(() -> Load.closedLoop(HOST, service.port(), key, 4, round,
                    "/api/v1/providers", 200, null)));
            Thread invokes = Thread.ofPlatform().start(() -> quietly(() -> Load.closedLoop(HOST, service.port(), key, 2, round,
                    "/api/v1/agents/" + agent + "/invoke", 200, n -> Platform.json(Map.of("message", "warm up " + n)))));
            Load.closedLoop(HOST, service.port(), key, sizes.clients(), round, tasksPath(), 202, n -> Platform.echoTask("warm up " + n));
            reads.join();
            invokes.join();
            compilingShare = (compilationMillis() - compiledBefore) / ((System.nanoTime() - roundStart) / 1e6);
            awaitDrained();
            awaitCompilerIdle();
            System.out.printf("bench: warm-up round %d: the JIT compiled %.0f %% of it%n", rounds, compilingShare * 100);
        } while (!smoke && compilingShare > 0.10 && rounds < 20);
        double seconds = (System.nanoTime() - start) / 1e9;
        report.put(reportKey, Map.of("seconds", seconds, "rounds", rounds, "compiling_share_of_last_round", compilingShare));
        System.out.printf("bench: warmed up in %.0f s (%d rounds; the JIT compiled %.0f %% of the last one)%n", seconds, rounds,
                compilingShare * 100);
    }

    /** Waits (at most a minute) until the service's JIT has compiled nothing for two seconds. */
    private void awaitCompilerIdle() throws Exception {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(smoke ? 0 : 1));
        double last = compilationMillis();
        while (Instant.now().isBefore(giveUp)) {
            Thread.sleep(2000);
            double now = compilationMillis();
            if (now - last < 50) {
                return;
            }
            last = now;
        }
    }

    /** The service JVM's accumulated compilation time (Micrometer's jvm.compilation.time), in milliseconds. */
    private double compilationMillis() {
        return metrics().lines().filter(line -> line.startsWith("jvm_compilation_time_ms_total")).findFirst()
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).orElse(0.0);
    }

    private interface Work {
        void run() throws Exception;
    }

    private static void quietly(Work work) {
        try {
            work.run();
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }

    /**
     * The HTTP stack's own ceiling: an authenticated read that touches no database (the provider catalog), and what the
     * shared per-key quota costs it: statements to the quota store per request.
     */
    private void authenticatedReads() throws Exception {
        double statementsBefore = quotaStatements();
        Load.Result reads = Load.closedLoop(HOST, service.port(), key, sizes.clients(), sizes.rawInsert(), "/api/v1/providers", 200,
                null);
        double perThousand = (quotaStatements() - statementsBefore) * 1000 / Math.max(1, reads.ok() + reads.failed());
        report.put("authenticated_reads", Map.of("per_second", reads.perSecond(), "latency", reads.latency().json(),
                "quota_store_statements_per_1000_requests", perThousand));
        report.atLeast("authenticated GET /providers, " + sizes.clients() + " connections", reads.perSecond(), "/s", null, true);
        report.atMost("quota store statements per 1,000 authenticated requests", perThousand, "", null);
        System.out.printf("bench: authenticated reads: %.0f/s, %s; %.2f quota statements per 1,000%n", reads.perSecond(), reads.latency(),
                perThousand);
    }

    private double quotaStatements() {
        return Platform.series(metrics()).entrySet().stream().filter(entry -> entry.getKey().startsWith("agent_platform_quota_store_statements_total"))
                .mapToDouble(entry -> Double.parseDouble(entry.getValue())).sum();
    }

    private void singleConnectionCreates() throws Exception {
        Latencies latencies = new Latencies();
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            for (int n = 0; n < sizes.singleCreates(); n++) {
                long sent = System.nanoTime();
                Platform.ok(http.post(tasksPath(), Platform.echoTask("one by one " + n)), 202);
                latencies.record(sent, System.nanoTime());
            }
        }
        Latencies.Summary summary = latencies.summary();
        report.put("create_one_connection", summary.json());
        report.atMost("create, 1 connection: p50", summary.p50(), "ms", 5.0);
        report.atMost("create, 1 connection: p99", summary.p99(), "ms", null);
        System.out.println("bench: create on one connection: " + summary);
        awaitDrained();
    }

    /** The burst of creates on many connections, then the backlog it left, carried to completion. */
    private void concurrentCreatesAndCompletion(String name) throws Exception {
        long unfinishedBefore = unfinishedTasks();
        StatementCounts counts = statements ? new StatementCounts(backlog.connection()) : null;
        if (counts != null) {
            counts.reset();
        }
        double jvmBefore = service.jvmCpuSeconds();
        double postgresBefore = service.postgresCpuSeconds();
        long start = System.nanoTime();
        Load.Result burst = Load.closedLoop(HOST, service.port(), key, sizes.clients(), sizes.burst(), tasksPath(), 202,
                n -> Platform.echoTask("burst " + n));
        long backlog = unfinishedTasks();
        // every accepted create is a task (its 202 comes from the committed command); finished unless the read model shows it
        // queued or running (one it has not reached yet counts as finished here, so "during the burst" can run high; the
        // sustained figure is taken once the backlog is drained)
        long created = burst.ok();
        double burstSeconds = (System.nanoTime() - start) / 1e9;
        double completedDuringBurst = (created - (backlog - unfinishedBefore)) / burstSeconds;
        long drainStart = System.nanoTime();
        long left = awaitDrained();
        double drainSeconds = (System.nanoTime() - drainStart) / 1e9;
        double totalSeconds = (System.nanoTime() - start) / 1e9;
        double sustained = (created - (left - unfinishedBefore)) / totalSeconds;
        sustainedPerSecond = sustained;
        double jvmPerTask = (service.jvmCpuSeconds() - jvmBefore) * 1000 / Math.max(1, created);
        double postgresPerTask = (service.postgresCpuSeconds() - postgresBefore) * 1000 / Math.max(1, created);
        if (counts != null) {
            // PostgreSQL's backends publish their commit counts when idle for a while (at most 10 s later)
            Thread.sleep(11_000);
            Map<String, Object> perTask = counts.perTask(created, out.resolve(name + "-statements.txt"));
            report.put("statements_in_burst", perTask);
            report.atMost("statements per task (pg_stat_statements)", ((Number) perTask.get("statements_per_task")).doubleValue(), "", null);
            report.atMost("commits per task", ((Number) perTask.get("commits_per_task")).doubleValue(), "", null);
            report.atMost("statement execution per task", ((Number) perTask.get("statement_execution_ms_per_task")).doubleValue(), "ms", null);
            report.atMost("statement planning per task", ((Number) perTask.get("statement_planning_ms_per_task")).doubleValue(), "ms", null);
        }

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("connections", sizes.clients());
        json.put("seconds", burst.seconds());
        json.put("accepted", burst.ok());
        json.put("refused", burst.failed());
        json.put("first_refusal", burst.firstFailure());
        json.put("accepted_per_second", burst.perSecond());
        json.put("latency", burst.latency().json());
        json.put("completed_per_second_during_burst", completedDuringBurst);
        json.put("backlog_at_stop", backlog);
        json.put("drain_seconds", drainSeconds);
        json.put("completed_per_second_sustained", sustained);
        json.put("jvm_cpu_ms_per_task", jvmPerTask);
        json.put("postgres_cpu_ms_per_task", postgresPerTask);
        report.put("create_concurrent", json);
        report.atLeast("create, " + sizes.clients() + " connections: accepted/s", burst.perSecond(), "/s", 1000.0, true);
        report.atMost("create, " + sizes.clients() + " connections: p50", burst.latency().p50(), "ms", null);
        report.atMost("create, " + sizes.clients() + " connections: p90", burst.latency().p90(), "ms", null);
        report.atMost("create, " + sizes.clients() + " connections: p99", burst.latency().p99(), "ms", 50.0);
        report.atLeast("tasks carried to completed/s (burst and its backlog)", sustained, "/s", 300.0, true);
        report.atMost("backlog when the load stopped", backlog, "tasks", null);
        report.atMost("seconds to drain that backlog", drainSeconds, "s", null);
        report.atMost("JVM CPU per task (create to completed)", jvmPerTask, "ms", 5.0);
        report.atMost("PostgreSQL CPU per task", postgresPerTask, "ms", null);
        if (burst.failed() > 0) {
            System.out.println("bench: refused creates: " + burst.failed() + ", first: " + burst.firstFailure());
        }
        System.out.printf("bench: %d creates on %d connections: %.0f/s, %s; backlog %d drained in %.1f s; %.0f completed/s;"
                        + " JVM %.2f ms and PostgreSQL %.2f ms CPU per task%n", burst.ok(), sizes.clients(), burst.perSecond(),
                burst.latency(), backlog, drainSeconds, sustained, jvmPerTask, postgresPerTask);
    }

    private void invokes() throws Exception {
        Latencies latencies = new Latencies();
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            for (int n = 0; n < sizes.invokes(); n++) {
                long sent = System.nanoTime();
                Platform.ok(http.post("/api/v1/agents/" + agent + "/invoke", Platform.json(Map.of("message", "invoke " + n))), 200);
                latencies.record(sent, System.nanoTime());
            }
        }
        Latencies.Summary summary = latencies.summary();
        report.put("invoke_at_rest", summary.json());
        report.atMost("invoke round trip at rest: p50", summary.p50(), "ms", 15.0);
        report.atMost("invoke round trip at rest: p99", summary.p99(), "ms", 50.0);
        System.out.println("bench: invoke at rest: " + summary);
    }

    /**
     * The highest open-loop create rate the node carries to completion: rates probed by bisection between half and one and a
     * half times the burst's sustained figure (or 50 to 600 a second without it), each for a window, kept when the backlog
     * grew by no more than two seconds of arrivals; then, at 80 % of the rate found, each task's create -> done as the store
     * has them (its created and completed instants), and what a task costs when tasks come one by one: JVM and PostgreSQL
     * CPU per task and, with {@code --statements}, PostgreSQL's statements per task.
     */
    private void sustained(String name) throws Exception {
        Duration window = smoke ? Duration.ofSeconds(3) : Duration.ofSeconds(60);
        double low = sustainedPerSecond > 0 ? sustainedPerSecond / 2 : 50;
        double high = sustainedPerSecond > 0 ? sustainedPerSecond * 1.5 : 600;
        double found = 0;
        List<Map<String, Object>> probes = new ArrayList<>();
        for (int probe = 0; probe < (smoke ? 2 : 5); probe++) {
            // below a rate found flat, halve down; above it, bisect up to the lowest found growing
            double rate = found == 0 ? low : (low + high) / 2;
            long before = unfinishedTasks();
            Load.Result load = Load.openLoop(HOST, service.port(), key, sizes.clients(), rate, window, tasksPath(), 202,
                    n -> Platform.echoTask("sustained " + n));
            long grew = unfinishedTasks() - before;
            boolean flat = grew <= 2 * rate && load.failed() == 0;
            probes.add(Map.of("rate_per_second", rate, "achieved_per_second", load.perSecond(), "backlog_growth", grew, "flat", flat));
            System.out.printf("bench: sustained probe at %.0f/s: %.0f/s accepted, backlog %+d: %s%n", rate, load.perSecond(), grew,
                    flat ? "flat" : "growing");
            if (flat) {
                found = Math.max(found, rate);
                low = rate;
            } else {
                high = rate;
                if (found == 0) {
                    low = rate / 2;
                }
            }
            awaitDrained();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("window_seconds", window.toSeconds());
        json.put("probes", probes);
        json.put("rate_per_second", found);
        if (found > 0) {
            String started = backlog.now();
            StatementCounts counts = statements ? new StatementCounts(backlog.connection()) : null;
            if (counts != null) {
                counts.reset();
            }
            double jvmBefore = service.jvmCpuSeconds();
            double postgresBefore = service.postgresCpuSeconds();
            Load.Result load = Load.openLoop(HOST, service.port(), key, sizes.clients(), 0.8 * found, window, tasksPath(), 202,
                    n -> Platform.echoTask("at 80 % " + n));
            awaitDrained();
            // what a task costs when tasks come one by one (the burst's figures are for tasks that come together), taken
            // before the bench's own queries below
            json.put("jvm_cpu_ms_per_task_at_80_percent", (service.jvmCpuSeconds() - jvmBefore) * 1000 / Math.max(1, load.ok()));
            json.put("postgres_cpu_ms_per_task_at_80_percent", (service.postgresCpuSeconds() - postgresBefore) * 1000 / Math.max(1, load.ok()));
            Map<String, Double> done = backlog.createToDone(started, agent);
            json.put("create_to_done_at_80_percent", done);
            List<String> slowest = slowestSince(started, 5);
            json.put("slowest_at_80_percent", slowest);
            slowest.forEach(line -> System.out.println("bench: sustained: a slowest task at 80 %, stage by stage: " + line));
            if (counts != null) {
                // PostgreSQL's backends publish their commit counts when idle for a while (at most 10 s later)
                Thread.sleep(11_000);
                json.put("statements_at_80_percent", counts.perTask(load.ok(), out.resolve(name + "-sustained-statements.txt")));
            }
            report.atMost("create -> done at 80 % of the sustained rate: p99", done.get("p99_ms"), "ms", 250.0);
            System.out.printf("bench: sustained %.0f creates/s; create -> done at 80 %%: p50 %.1f ms, p99 %.1f ms%n", found,
                    done.get("p50_ms"), done.get("p99_ms"));
        }
        report.put("sustained", json);
        report.atLeast("sustained creates/s (backlog flat for the window)", found, "/s", null, true);
    }

    /**
     * The {@code count} bench agent's tasks since {@code since} slowest from created to completed, each stage by stage as the
     * store has it: created (its first event), handed to the runtime, claimed, begun, its outcome's event, in ms from the one
     * before.
     */
    private List<String> slowestSince(String since, int count) throws Exception {
        return agentRowsSince("SELECT t.created_at, l.created_at, l.claimed_at, l.began_at, t.updated_at FROM task_view t"
                + " LEFT JOIN local_turn l ON l.channel_id = t.id WHERE t.created_at >= ?::timestamptz AND t.agent_id = ?::uuid"
                + " AND t.status = 'completed' ORDER BY t.updated_at - t.created_at DESC LIMIT " + count, since, row -> {
                    Instant created = timestamp(row, 1);
                    Instant outcome = timestamp(row, 5);
                    return stages(Duration.between(created, outcome).toMillis() + " ms from " + created + ":",
                            new Instant[] {created, timestamp(row, 2), timestamp(row, 3), timestamp(row, 4), outcome},
                            new String[] {"handed", "claimed", "begun", "outcome"});
                });
    }

    /** What a row reader makes of a row of a query. */
    private interface RowReader<T> {

        T read(ResultSet row) throws SQLException;
    }

    /** The one row of {@code sql} (parameters: an instant, then the bench agent's id) about the bench agent since {@code since}. */
    private <T> T agentRowSince(String sql, String since, RowReader<T> reader) throws Exception {
        return rowSince(sql, since, agent, reader);
    }

    /** Every row of {@code sql} (parameters: an instant, then the bench agent's id) about the bench agent since {@code since}. */
    private <T> List<T> agentRowsSince(String sql, String since, RowReader<T> reader) throws Exception {
        List<T> rows = new ArrayList<>();
        try (var statement = backlog.connection().prepareStatement(sql)) {
            statement.setString(1, since);
            statement.setString(2, agent);
            try (var row = statement.executeQuery()) {
                while (row.next()) {
                    rows.add(reader.read(row));
                }
            }
        }
        return rows;
    }

    /** The one row of {@code sql} (parameters: an instant, then an agent's id) about agent {@code about} since {@code since}. */
    private <T> T rowSince(String sql, String since, String about, RowReader<T> reader) throws Exception {
        try (var statement = backlog.connection().prepareStatement(sql)) {
            statement.setString(1, since);
            statement.setString(2, about);
            try (var row = statement.executeQuery()) {
                row.next();
                return reader.read(row);
            }
        }
    }

    /**
     * One owner's flood beside another owner's steady work, on a node with the shipped settings ({@link #onShippedNode}: the
     * bound on A's backlog in force, its refusals counted): owner B sends one invoke and one task a second, at rest and while
     * owner A creates tasks at twice the rate the node carries them to completion (the burst's sustained figure); B's
     * invoke round trip and create -> {@code done} (on the task's stream) are compared between the two, and A's accepted
     * and refused creates, backlog, and the order its turns started in are reported.
     */
    private void neighbours() throws Exception {
        Duration window = smoke ? Duration.ofSeconds(3) : Duration.ofSeconds(60);
        Platform.Target neighbour = Platform.target(HOST, service, Platform.secondOwnerKey(HOST, service, serviceJar, "neighbour"));
        double floodRate = 2 * (sustainedPerSecond > 0 ? sustainedPerSecond : 250);
        rehearse(neighbour, floodRate);
        String restStarted = backlog.now();
        // as long at rest as during the flood: each p99 is then taken over as many samples (of 20 against 60, the slowest
        // of the 60 would be compared with the slowest of 20, a larger tail with no flood at all)
        Steady atRest = steady(neighbour, window);
        AtomicReference<Load.Result> flood = new AtomicReference<>();
        String floodStarted = backlog.now();
        String metricsBefore = metrics();
        Map<String, long[]> floodCreates = new ConcurrentHashMap<>();
        Thread flooding = Thread.ofPlatform().start(() -> {
            try {
                flood.set(Load.openLoop(HOST, service.port(), key, sizes.clients(), floodRate, window, tasksPath(), 202,
                        n -> Platform.echoTask("flood " + n), new AtomicBoolean(),
                        (sent, response) -> createdTask(response).ifPresent(task -> floodCreates.put(task, new long[] {sent, System.nanoTime()}))));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        Map<String, Double> peakLags = new java.util.concurrent.ConcurrentSkipListMap<>();
        Thread sampling = Thread.ofPlatform().daemon().start(() -> sampleLags(peakLags));
        Steady during = steady(neighbour, window);
        flooding.join();
        sampling.interrupt();
        sampling.join();
        long backlogAtStop = unfinishedTasks();
        Map<String, Object> metricsMoved = movedMetrics(metricsBefore, metrics());
        awaitDrained();
        List<Inversion> inverted = startInversions(floodStarted, floodCreates);
        long inversions = claimedBeforeCreatedBefore(floodStarted, floodCreates);
        long[] early = runningBeforeBegun(floodStarted);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("window_seconds", window.toSeconds());
        json.put("flood_rate_per_second", floodRate);
        json.put("b_at_rest", atRest.json());
        json.put("b_during_flood", during.json());
        json.put("a_accepted", flood.get().ok());
        json.put("a_refused", flood.get().failed());
        json.put("a_first_refusal", flood.get().firstFailure());
        json.put("a_backlog_at_stop", backlogAtStop);
        json.put("a_turns_started_out_of_creation_order", inversions);
        long overlapping = inverted.stream().filter(inversion -> !inversion.seen()).count();
        json.put("a_turns_claimed_before_one_created_with_them", overlapping);
        if (!inverted.isEmpty()) {
            List<String> listed = inverted.stream().sorted(Comparator.comparing(Inversion::seen).reversed()).limit(10)
                    .map(Inversion::toString).toList();
            json.put("a_turns_out_of_order", listed);
            listed.forEach(turn -> System.out.println("bench: neighbours: a turn claimed before the one stored before it: " + turn));
        }
        json.put("a_running_statuses", early[0]);
        json.put("a_running_before_begun", early[1]);
        json.put("processor_lag_peak_events", peakLags);
        boolean sharing = shareDispatchSegment(agent, neighbour.agent());
        json.put("a_and_b_share_a_dispatch_segment", sharing);
        json.put("b_stages_at_rest", turnStages(restStarted, floodStarted, neighbour.agent()));
        Map<String, Object> stages = turnStages(floodStarted, "infinity", neighbour.agent());
        json.put("b_stages_during_flood", stages);
        double invokeRatio = during.invokes().summary().p99() / Math.max(0.001, atRest.invokes().summary().p99());
        double doneRatio = during.done().summary().p99() / Math.max(0.001, atRest.done().summary().p99());
        json.put("b_invoke_p99_ratio", invokeRatio);
        json.put("b_done_p99_ratio", doneRatio);
        // a p99 of 60 samples is about their slowest, so one stall decides the ratio; how many went past twice the at-rest
        // p99 tells one stall from a tail
        json.put("b_invokes_over_twice_rest_p99", slowerThan(during.invokeSamples(), 2 * atRest.invokes().summary().p99()));
        json.put("b_creates_over_twice_rest_p99", slowerThan(during.doneSamples(), 2 * atRest.done().summary().p99()));
        json.put("metrics_moved_during_flood", metricsMoved);
        report.put("neighbours", json);
        report.atMost("neighbour's invoke p99 during a flood / at rest", invokeRatio, "x", 2.0);
        report.atMost("neighbour's create -> done p99 during a flood / at rest", doneRatio, "x", 2.0);
        report.atMost("flooding owner's turns claimed before one created before them", inversions, "", 0.0);
        report.atMost("flooding owner's tasks said running before a worker began their turn", early[1], "", 0.0);
        System.out.printf("bench: neighbours: B's invoke at rest %s, during A's flood (%.0f/s) %s; B's create -> done at rest %s,"
                        + " during %s; A accepted %d, refused %d, backlog %d, %d turns claimed before one created before them"
                        + " (and %d before one created while they were), %d of %d running statuses before a worker began their turn%n",
                atRest.invokes().summary(), floodRate, during.invokes().summary(), atRest.done().summary(), during.done().summary(),
                flood.get().ok(), flood.get().failed(), backlogAtStop, inversions, overlapping, early[1], early[0]);
        System.out.println("bench: neighbours: each processor's peak lag during the flood (events): " + peakLags);
        metricsMoved.forEach((series, moved) -> {
            if (series.startsWith("agent_platform_events_reads")) {
                System.out.println("bench: neighbours: during the flood " + series + " " + moved);
            }
        });
        System.out.printf("bench: neighbours: of B's %d invokes and %d creates during the flood, %d and %d took over twice the p99 at rest%n",
                during.invokeSamples().size(), during.doneSamples().size(), json.get("b_invokes_over_twice_rest_p99"),
                json.get("b_creates_over_twice_rest_p99"));
        Map<String, Object> slowest = new LinkedHashMap<>();
        slowest.put("invoke_at_rest", slowestStages(backlog.connection(), atRest.invokeSamples(), 3));
        slowest.put("invoke_during_flood", slowestStages(backlog.connection(), during.invokeSamples(), 3));
        slowest.put("create_to_done_at_rest", slowestStages(backlog.connection(), atRest.doneSamples(), 3));
        slowest.put("create_to_done_during_flood", slowestStages(backlog.connection(), during.doneSamples(), 3));
        json.put("b_slowest_stages_ms", slowest);
        slowest.forEach((which, lines) -> System.out.println("bench: neighbours: B's slowest " + which + ", stage by stage: " + lines));
        System.out.println("bench: neighbours: B's turns during the flood, stage by stage (ms): " + stages + (sharing
                ? "; B shared a dispatcher segment with A" : "; B's dispatcher segment was not A's"));
    }

    /**
     * Whether the task dispatcher takes the two agents' owners' events on one segment (where one waits behind the other's
     * flood): Axon places an event by its sequence's hash (the owner's id) masked by the segment count (a power of two).
     */
    private boolean shareDispatchSegment(String agentA, String agentB) throws Exception {
        try (var statement = backlog.connection().prepareStatement("SELECT (SELECT count(*) FROM token_entry WHERE processor_name"
                + " = 'task-dispatch'), (SELECT owner_id::text FROM task_view WHERE agent_id = ?::uuid LIMIT 1),"
                + " (SELECT owner_id::text FROM task_view WHERE agent_id = ?::uuid LIMIT 1)")) {
            statement.setString(1, agentA);
            statement.setString(2, agentB);
            try (var row = statement.executeQuery()) {
                row.next();
                int mask = row.getInt(1) - 1;
                return (UUID.fromString(row.getString(2)).hashCode() & mask) == (UUID.fromString(row.getString(3)).hashCode() & mask);
            }
        }
    }

    /**
     * Where an agent's completed tasks created from {@code since} to {@code until} spent their time, p50 and p99 of each stage: from created to the
     * turn handed to the runtime (the dispatcher), to claimed for a worker (the fair order), to begun by a worker, to the
     * outcome stored; what follows (the projection, the stream) is the rest of the client's figure.
     */
    private Map<String, Object> turnStages(String since, String until, String about) throws Exception {
        String[] stages = {"handed", "claimed", "begun", "completed"};
        String[] spans = {"l.created_at - t.created_at", "l.claimed_at - l.created_at", "coalesce(l.began_at, l.claimed_at) - l.claimed_at",
                "t.updated_at - coalesce(l.began_at, l.claimed_at)"};
        StringBuilder columns = new StringBuilder();
        for (String span : spans) {
            columns.append(columns.isEmpty() ? "" : ",").append(" percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ")
                    .append(span).append(") * 1000), percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM ").append(span)
                    .append(") * 1000)");
        }
        return rowSince("SELECT" + columns + " FROM task_view t JOIN local_turn l ON l.channel_id = t.id"
                + " WHERE t.created_at >= ?::timestamptz AND t.agent_id = ?::uuid AND t.status = 'completed'"
                + " AND t.created_at < '" + until + "'::timestamptz", since, about, row -> {
            Map<String, Object> json = new LinkedHashMap<>();
            for (int stage = 0; stage < stages.length; stage++) {
                json.put(stages[stage], Map.of("p50_ms", Math.round(row.getDouble(2 * stage + 1) * 100) / 100.0,
                        "p99_ms", Math.round(row.getDouble(2 * stage + 2) * 100) / 100.0));
            }
            return json;
        });
    }

    /**
     * The neighbours' load once, unmeasured: A's flood at {@code floodRate} beside B's steady work for 15 s (a second in
     * the smoke), then the node drained and its compiler idle. The warm-up is one owner's, so without it the flood's first
     * seconds would run the paths only two owners take (the shares, their refusals, B's work beside a flood) in the
     * interpreter, and the node's ceiling would be the one it learnt while cold: the phase is meant for a warm node, as
     * every other (a cold node is the cold phase's).
     */
    private void rehearse(Platform.Target neighbour, double floodRate) throws Exception {
        Duration rehearsal = smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(15);
        Thread flooding = Thread.ofPlatform().start(() -> quietly(() -> Load.openLoop(HOST, service.port(), key, sizes.clients(),
                floodRate, rehearsal, tasksPath(), 202, n -> Platform.echoTask("rehearsal " + n))));
        steady(neighbour, rehearsal);
        flooding.join();
        awaitDrained();
        awaitCompilerIdle();
    }

    /** Until interrupted, every second: each processor's lag, the highest seen kept in {@code peaks} (where a flood's tail is set). */
    private void sampleLags(Map<String, Double> peaks) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Platform.processorLags(metrics()).forEach((processor, lag) -> peaks.merge(processor, lag, Math::max));
                Thread.sleep(1_000);
            } catch (InterruptedException stopped) {
                return;
            } catch (RuntimeException unreadable) {
                System.out.println("bench: neighbours: the processors' lag could not be read: " + unreadable.getMessage());
                return;
            }
        }
    }

    /**
     * Owner B's steady work over a window: its invoke round trips, and its tasks from create to the stream's {@code done};
     * each sample also kept whole ({@link Sample}) so that the slowest can be followed through the platform's stages.
     */
    private record Steady(Latencies invokes, Latencies done, List<Sample> invokeSamples, List<Sample> doneSamples) {

        Map<String, Object> json() {
            return Map.of("invoke", invokes.summary().json(), "create_to_done", done.summary().json());
        }
    }

    /** One of B's requests: its task, and when (the wall clock, which PostgreSQL on this box shares) it was sent and answered. */
    record Sample(String task, Instant sent, Instant answered) {

        long millis() {
            return Duration.between(sent, answered).toMillis();
        }
    }

    /**
     * Where the slowest of {@code samples} spent their time: from sent to the task's first event stamped (HTTP, auth, the
     * command), recorded for the runtime (commit, the dispatcher), claimed, begun, the outcome's event stamped, answered
     * (commit, the projection, the wait's wake-up, HTTP), each in ms from the one before.
     */
    static List<String> slowestStages(Connection connection, List<Sample> samples, int count) throws SQLException {
        return stagesOf(connection, samples.stream().sorted(Comparator.comparingLong(Sample::millis).reversed()).limit(count).toList());
    }

    /** Where each of {@code samples} spent its time, as {@link #slowestStages} lists it. */
    static List<String> stagesOf(Connection connection, List<Sample> samples) throws SQLException {
        List<String> lines = new ArrayList<>();
        String sql = "SELECT (SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = ? ORDER BY sequence_number LIMIT 1),"
                + " (SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = ? ORDER BY sequence_number DESC LIMIT 1),"
                + " l.created_at, l.claimed_at, l.began_at FROM (SELECT 1) one LEFT JOIN local_turn l ON l.channel_id = ?::uuid";
        try (var statement = connection.prepareStatement(sql)) {
            for (Sample sample : samples) {
                statement.setString(1, sample.task());
                statement.setString(2, sample.task());
                statement.setString(3, sample.task());
                try (var row = statement.executeQuery()) {
                    row.next();
                    Instant[] marks = {sample.sent(), instant(row.getString(1)), timestamp(row, 3), timestamp(row, 4), timestamp(row, 5),
                        instant(row.getString(2)), sample.answered()};
                    lines.add(stages(sample.millis() + " ms from " + sample.sent() + ":", marks,
                            new String[] {"created", "handed", "claimed", "begun", "outcome", "answered"}));
                }
            }
        }
        return lines;
    }

    /**
     * {@code head}, then each stage {@code names[i]} with the ms from mark {@code i} to mark {@code i + 1} ("?" for a mark
     * not recorded; the next stage counts from the last mark recorded).
     */
    private static String stages(String head, Instant[] marks, String[] names) {
        StringBuilder line = new StringBuilder(head);
        Instant before = marks[0];
        for (int stage = 0; stage < names.length; stage++) {
            Instant mark = marks[stage + 1];
            line.append(' ').append(names[stage]).append(' ').append(mark == null || before == null ? "?" : Duration.between(before, mark).toMillis());
            before = mark == null ? before : mark;
        }
        return line.toString();
    }

    /** One synchronous invoke of {@code agent}, waited for: its round trip recorded in {@code latencies}, and its sample. */
    static Sample invoke(HttpConnection http, String agent, Latencies latencies) throws Exception {
        long sent = System.nanoTime();
        Instant sentAt = Instant.now();
        String task = Platform.ok(http.post("/api/v1/agents/" + agent + "/invoke", Platform.json(Map.of("message", "steady"))), 200)
                .at("/data/task_id").asString();
        latencies.record(sent, System.nanoTime());
        return new Sample(task, sentAt, Instant.now());
    }

    /** How many of {@code samples} took longer than {@code millis}. */
    private static long slowerThan(List<Sample> samples, double millis) {
        return samples.stream().filter(sample -> sample.millis() > millis).count();
    }

    private static Instant instant(String text) {
        return text == null ? null : Instant.parse(text);
    }

    private static Instant timestamp(ResultSet row, int column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    /** One invoke and one task a second, each waited for, for {@code window}. */
    private Steady steady(Platform.Target owner, Duration window) throws Exception {
        Latencies invokes = new Latencies();
        Latencies done = new Latencies();
        List<Sample> invokeSamples = new ArrayList<>();
        List<Sample> doneSamples = new ArrayList<>();
        String tasks = "/api/v1/agents/" + owner.agent() + "/tasks";
        long end = System.nanoTime() + window.toNanos();
        try (HttpConnection http = new HttpConnection(HOST, service.port(), owner.key())) {
            for (long next = System.nanoTime(); next < end; next += 1_000_000_000L) {
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                long sent = System.nanoTime();
                Instant sentAt = Instant.now();
                String task = Platform.ok(http.post(tasks, Platform.echoTask("steady")), 202).at("/data/task_id").asString();
                try (EventStream stream = new HttpConnection(HOST, service.port(), owner.key()).stream(tasks + "/" + task + "/events", null)) {
                    for (EventStream.Frame frame = stream.next(); frame != null; frame = stream.next()) {
                        if ("done".equals(frame.event())) {
                            done.record(sent, System.nanoTime());
                            doneSamples.add(new Sample(task, sentAt, Instant.now()));
                            break;
                        }
                    }
                }
                invokeSamples.add(invoke(http, owner.agent(), invokes));
            }
        }
        return new Steady(invokes, done, invokeSamples, doneSamples);
    }

    /**
     * The bench agent's task turns started since the first parameter (the agent the second) that were claimed for a worker
     * before the turn started just before them (turns claimed together count as in order), each beside that turn: its start
     * in the store, when it was recorded, claimed and by whom, how it ended.
     */
    private static final String INVERTED_STARTS = "SELECT * FROM (SELECT channel_id, log_window, created_at, claimed_at, claimed_by, state,"
            + " began_at, lag(channel_id) OVER w AS before_channel, lag(log_window) OVER w AS before_window,"
            + " lag(created_at) OVER w AS before_created, lag(claimed_at) OVER w AS before_claimed, lag(claimed_by) OVER w AS before_by,"
            + " lag(state) OVER w AS before_state"
            + " FROM local_turn WHERE created_at >= ?::timestamptz AND agent_id = ?::uuid AND kind = 'task' AND state <> 'ready'"
            + " WINDOW w AS (ORDER BY log_window)) ordered WHERE claimed_at < before_claimed ORDER BY log_window LIMIT 10000";

    /**
     * A turn claimed before the one stored just before it ({@link #INVERTED_STARTS}), and whether a client could see an order
     * between the two: {@code seen} when the earlier one's create was answered before the later one's was sent (or either
     * create is not known to the flood, to be safe). Two creates in flight together may commit out of the order of their
     * global indexes, the later-indexed one then reaching the dispatcher, and being claimed, first; neither was created
     * before the other.
     */
    private record Inversion(boolean seen, String description) {

        @Override
        public String toString() {
            return description + (seen ? "" : "; created while it was (in flight together)");
        }
    }

    /**
     * The bench agent's turns started since {@code since} that were claimed before the turn stored just before them, each
     * judged by when the flood sent and was answered their creates ({@code creates}: a task's send and answer, {@link
     * System#nanoTime}). Zero seen when an owner's line is first in, first out. Completions are not compared: two workers
     * finish neighbours in either order.
     */
    private List<Inversion> startInversions(String since, Map<String, long[]> creates) throws Exception {
        return agentRowsSince(INVERTED_STARTS, since, row -> {
            long[] later = creates.get(row.getString("channel_id"));
            long[] earlier = creates.get(row.getString("before_channel"));
            boolean seen = later == null || earlier == null || earlier[1] < later[0];
            return new Inversion(seen, String.format(
                    "start %d recorded %s claimed %s by %s (%s, began %s) after start %d recorded %s claimed %s by %s (%s)",
                    row.getLong("log_window"), row.getString("created_at"), row.getString("claimed_at"), row.getString("claimed_by"),
                    row.getString("state"), row.getString("began_at"), row.getLong("before_window"), row.getString("before_created"),
                    row.getString("before_claimed"), row.getString("before_by"), row.getString("before_state")));
        });
    }

    /**
     * How many of the bench agent's turns started since {@code since} were claimed after a turn whose task was created
     * before theirs, that is whose create the flood had answered before it sent theirs ({@code creates}: each task's send and
     * answer, {@link System#nanoTime}): zero when the owner's line is first in, first out as its client sees it. Each turn is
     * compared with every turn created before it (the latest claim among them), not only its neighbour in the store.
     */
    private long claimedBeforeCreatedBefore(String since, Map<String, long[]> creates) throws Exception {
        Map<String, Long> claimed = agentRowsSince("SELECT channel_id, (extract(epoch FROM claimed_at) * 1000000)::bigint FROM local_turn"
                + " WHERE created_at >= ?::timestamptz AND agent_id = ?::uuid AND kind = 'task' AND claimed_at IS NOT NULL", since,
                row -> Map.entry(row.getString(1), row.getLong(2))).stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Math::min)); // a task's first turn, its create's
        return claimedLate(creates.entrySet().stream().filter(create -> claimed.containsKey(create.getKey()))
                .map(create -> new long[] {create.getValue()[0], create.getValue()[1], claimed.get(create.getKey())}).toList());
    }

    /**
     * Of {@code turns} ({sent, answered, claimed} of each task: its create's send and answer, its turn's claim), how many were
     * claimed before the latest claim among those whose create was answered before theirs was sent.
     */
    static long claimedLate(List<long[]> unordered) {
        long[][] turns = unordered.stream().sorted(Comparator.comparingLong(turn -> turn[1])).toArray(long[][]::new);
        long[] answered = new long[turns.length];
        long[] latestClaim = new long[turns.length];
        for (int i = 0; i < turns.length; i++) {
            answered[i] = turns[i][1];
            latestClaim[i] = Math.max(turns[i][2], i == 0 ? Long.MIN_VALUE : latestClaim[i - 1]);
        }
        long late = 0;
        for (long[] turn : turns) {
            int before = Arrays.binarySearch(answered, turn[0]);
            int createdBefore = before >= 0 ? before : -before - 1; // those answered strictly before it was sent (ties: not before)
            while (createdBefore > 0 && answered[createdBefore - 1] >= turn[0]) {
                createdBefore--;
            }
            if (createdBefore > 0 && latestClaim[createdBefore - 1] > turn[2]) {
                late++;
            }
        }
        return late;
    }

    /** The task a create's 202 answered, read from its body without parsing the whole of it. */
    private static Optional<String> createdTask(HttpConnection.Response response) {
        String field = "\"task_id\":\"";
        int at = response.status() == 202 ? response.body().indexOf(field) : -1;
        return at < 0 ? Optional.empty()
                : Optional.of(response.body().substring(at + field.length(), response.body().indexOf('"', at + field.length())));
    }

    /**
     * Of the bench agent's task turns started since {@code since}: how many statuses said {@code running}, and how many of
     * them are dated before the runtime's worker began the turn (a task said running while its turn still waited). A turn's
     * start is recorded with its end: turns still running are not compared.
     */
    private long[] runningBeforeBegun(String since) throws Exception {
        return agentRowSince("SELECT count(*), count(*) FILTER (WHERE m.occurred_at < l.began_at) FROM local_turn l"
                + " JOIN channel_message m ON m.channel_id = l.channel_id AND m.turn = l.turn AND m.kind = 'task_status' AND m.status = 'running'"
                + " WHERE l.created_at >= ?::timestamptz AND l.agent_id = ?::uuid AND l.kind = 'task'",
                since, row -> new long[] {row.getLong(1), row.getLong(2)});
    }

    /** From the create request to the stream's first {@code task_status} frame, and to {@code done}; optionally under a background load. */
    private void createToFirstFrame(String label, double backgroundRate) throws Exception {
        FirstFrames.Watched watched = new FirstFrames(HOST, key, agent).underBackground(sizes.sseSamples(), service.port(), backgroundRate);
        Latencies.Summary first = watched.firstFrame().summary();
        Latencies.Summary end = watched.done().summary();
        report.put("create_to_sse_" + label, Map.of("accepted", watched.accepted().summary().json(), "stream_open",
                watched.streamOpen().summary().json(), "first_task_status", first.json(), "done", end.json(),
                "background_creates_per_second", backgroundRate));
        String context = backgroundRate > 0 ? " (" + (int) backgroundRate + " creates/s background)" : " (at rest)";
        report.atMost("create -> first task_status frame" + context + ": p50", first.p50(), "ms", 20.0);
        report.atMost("create -> first task_status frame" + context + ": p99", first.p99(), "ms", 100.0);
        report.atMost("create -> done frame" + context + ": p50", end.p50(), "ms", null);
        report.atMost("create -> done frame" + context + ": p99", end.p99(), "ms", null);
        System.out.println("bench: create -> first status frame" + context + ": " + first + "; -> done: " + end + "; -> 202: "
                + watched.accepted().summary() + "; -> stream open: " + watched.streamOpen().summary());
        awaitDrained();
    }

    /**
     * A second node on the first one's PostgreSQL: tasks created through the first node, streamed through the second,
     * which learns of the first's commits by NOTIFY. The second node's JIT is cold, so it is warmed a little first.
     */
    private void crossNode(Path scratch, String name) throws Exception {
        Path log = out.resolve(name + "-second-node.log");
        try (Service second = Service.secondNode(service, serviceJar, javaOptions, scratch.resolve("data-second-node"), log,
                SERVICE_SETTINGS)) {
            FirstFrames frames = new FirstFrames(HOST, key, agent);
            frames.watch(smoke ? 5 : 500, service.port(), second.port());
            FirstFrames.Watched watched = frames.watch(sizes.sseSamples(), service.port(), second.port());
            Latencies.Summary first = watched.firstFrame().summary();
            Latencies.Summary end = watched.done().summary();
            report.put("create_to_sse_across_nodes", Map.of("first_task_status", first.json(), "done", end.json()));
            report.atMost("create on node A -> first task_status frame on node B: p50", first.p50(), "ms", null);
            report.atMost("create on node A -> first task_status frame on node B: p99", first.p99(), "ms", 100.0);
            report.atMost("create on node A -> done frame on node B: p99", end.p99(), "ms", null);
            System.out.println("bench: create on one node -> first status frame on another: " + first + "; -> done: " + end);
        }
        awaitDrained();
    }

    /**
     * One conversation on one held SSE stream, its messages sent one after the other (each once the turn before it
     * ended): the send's answer, then the turn's {@code running} frame and its final {@code turn_status} frame.
     */
    private void conversationTurns() throws Exception {
        Latencies accepted = new Latencies();
        Latencies started = new Latencies();
        Latencies answered = new Latencies();
        String conversations = "/api/v1/agents/" + agent + "/conversations";
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            String conversation = Platform.ok(http.post(conversations, "{}"), 201).at("/data/conversation_id").asString();
            try (EventStream stream = new HttpConnection(HOST, service.port(), key).stream(conversations + "/" + conversation + "/events",
                    null)) {
                for (int n = 0; n < sizes.sseSamples(); n++) {
                    long sent = System.nanoTime();
                    Platform.ok(http.post(conversations + "/" + conversation + "/messages", Platform.json(Map.of("message", "turn " + n))),
                            202);
                    accepted.record(sent, System.nanoTime());
                    EventStream.Frame frame;
                    while ((frame = stream.next()) != null) {
                        if (!"turn_status".equals(frame.event())) {
                            continue;
                        }
                        JsonNode data = Platform.JSON.readTree(frame.data());
                        if (data.get("turn").asInt() != n + 1) {
                            continue;
                        }
                        if (!data.get("final").asBoolean()) {
                            started.record(sent, System.nanoTime());
                        } else {
                            answered.record(sent, System.nanoTime());
                            break;
                        }
                    }
                }
            }
            Platform.ok(http.post(conversations + "/" + conversation + "/close", "{}"), 200);
        }
        Latencies.Summary send = accepted.summary();
        Latencies.Summary start = started.summary();
        Latencies.Summary end = answered.summary();
        report.put("conversation_turns", Map.of("message_accepted", send.json(), "turn_running_frame", start.json(),
                "turn_final_frame", end.json()));
        report.atMost("conversation message -> 202: p50", send.p50(), "ms", null);
        report.atMost("conversation message -> turn running frame: p50", start.p50(), "ms", null);
        report.atMost("conversation message -> turn running frame: p99", start.p99(), "ms", null);
        report.atMost("conversation message -> final turn_status frame: p50", end.p50(), "ms", null);
        report.atMost("conversation message -> final turn_status frame: p99", end.p99(), "ms", null);
        System.out.println("bench: conversation message -> 202: " + send + "; -> running frame: " + start + "; -> final frame: " + end);
    }

    /**
     * Terminals on the local provider: the create's answer (a ticket), from the create to the shell's first output on the
     * WebSocket (ticket redeemed, shell started), and a typed line's answer on one held terminal. Each shell then exits.
     */
    private void terminals() throws Exception {
        Latencies created = new Latencies();
        Latencies firstOutput = new Latencies();
        Latencies echoed = new Latencies();
        List<TerminalSocket> shells = new ArrayList<>();
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            for (int n = 0; n < sizes.sseSamples(); n++) {
                long sent = System.nanoTime();
                JsonNode ticket = Platform.ok(http.post("/api/v1/instances/" + instance + "/terminal-sessions", "{}"), 200).get("data");
                created.record(sent, System.nanoTime());
                TerminalSocket shell = TerminalSocket.attach(ticket.get("websocket_url").asString() + "?ticket=" + ticket.get("ticket").asString());
                shell.awaitOutput();
                firstOutput.record(sent, System.nanoTime());
                if (shells.isEmpty()) {
                    shells.add(shell);
                } else {
                    shell.type("exit\n");
                    shell.close();
                }
            }
            TerminalSocket held = shells.getFirst();
            for (int n = 0; n < sizes.sseSamples(); n++) {
                long sent = System.nanoTime();
                held.type("echo line-$((" + n + "+1))\n");
                held.await("line-" + (n + 1) + "\r\n");
                echoed.record(sent, System.nanoTime());
            }
        } finally {
            for (TerminalSocket shell : shells) {
                shell.type("exit\n");
                shell.close();
            }
        }
        Latencies.Summary open = created.summary();
        Latencies.Summary first = firstOutput.summary();
        Latencies.Summary echo = echoed.summary();
        report.put("terminals", Map.of("create", open.json(), "create_to_first_output", first.json(), "typed_line_round_trip", echo.json()));
        report.atMost("terminal create -> ticket: p50", open.p50(), "ms", null);
        report.atMost("terminal create -> shell's first output on the WebSocket: p50", first.p50(), "ms", null);
        report.atMost("terminal create -> shell's first output on the WebSocket: p99", first.p99(), "ms", null);
        report.atMost("terminal typed line -> its answer: p50", echo.p50(), "ms", null);
        report.atMost("terminal typed line -> its answer: p99", echo.p99(), "ms", null);
        System.out.println("bench: terminal create: " + open + "; -> first output: " + first + "; typed line round trip: " + echo);
    }

    private void latencyCurve(String name) throws Exception {
        List<Chart.Point> points = new ArrayList<>();
        List<Map<String, Object>> json = new ArrayList<>();
        for (double rate : sizes.curveRates()) {
            Load.Result step = Load.openLoop(HOST, service.port(), key, sizes.clients(), rate, sizes.curveStep(), tasksPath(), 202,
                    n -> Platform.echoTask("curve " + n));
            points.add(new Chart.Point(rate, step.perSecond(), step.latency().p50(), step.latency().p99()));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("offered_per_second", rate);
            row.put("achieved_per_second", step.perSecond());
            row.put("latency", step.latency().json());
            json.add(row);
            System.out.printf("bench: open loop at %.0f/s: achieved %.0f/s, %s%n", rate, step.perSecond(), step.latency());
            awaitDrained();
        }
        report.put("latency_vs_load", json);
        Chart.write(points, "Create latency vs load (echo agent, embedded PostgreSQL, " + Runtime.getRuntime().availableProcessors()
                + " cores)", out.resolve(name + "-latency-vs-load.png"));
        Files.copy(out.resolve(name + "-latency-vs-load.png"), out.resolve(smoke ? "latest-smoke-latency-vs-load.png" : "latest-latency-vs-load.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private void webhooks() throws Exception {
        try (WebhookSink sink = new WebhookSink()) {
            String body = Platform.json(Map.of("message", "hooked", "webhooks", List.of(Map.of("url", sink.url()))));
            Load.Result created = Load.closedLoop(HOST, service.port(), key, sizes.clients(), Duration.ofMinutes(10),
                    sizes.webhookTasks(), tasksPath(), 202, n -> body);
            long expected = created.ok() * 3;
            Platform.await(() -> sink.received() >= expected, expected + " callbacks");
            Latencies.Summary lag = sink.lag();
            report.put("webhooks", Map.of("tasks", created.ok(), "callbacks", sink.received(), "callbacks_per_second", sink.perSecond(),
                    "transition_to_arrival", lag.json()));
            report.atLeast("webhook first attempts/s to a local sink", sink.perSecond(), "/s", null, true);
            report.atMost("webhook transition -> first attempt: p99", lag.p99(), "ms", null);
            System.out.printf("bench: %d webhook callbacks at %.0f/s; transition -> arrival %s%n", sink.received(), sink.perSecond(), lag);
        }
    }

    private void heldStreams() throws Exception {
        // tasks whose agent never answers: their streams stay open
        int tasks = Math.max(1, sizes.heldStreams() / 100);
        List<String> hanging = new ArrayList<>();
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            for (int n = 0; n < tasks; n++) {
                hanging.add(Platform.ok(http.post(tasksPath(), Platform.echoTask("hold on " + n + "\n/echo then=hang")), 202).at("/data/task_id").asString());
            }
        }
        service.collectGarbage();
        long heapBefore = heapUsed();
        long residentBefore = service.residentBytes();
        CountDownLatch opened = new CountDownLatch(sizes.heldStreams());
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger failed = new AtomicInteger();
        // why streams were not held (a status, or the client's exception): a connection the service never saw says so
        Map<String, Integer> failures = new ConcurrentHashMap<>();
        List<Thread> holders = new ArrayList<>();
        for (int n = 0; n < sizes.heldStreams(); n++) {
            String task = hanging.get(n % hanging.size());
            holders.add(Thread.ofVirtual().start(() -> {
                try (EventStream stream = new HttpConnection(HOST, service.port(), key)
                        .stream("/api/v1/agents/" + agent + "/tasks/" + task + "/events", null)) {
                    if (stream.status() == 200 && stream.next() != null) {
                        opened.countDown();
                        release.await();
                    } else {
                        failures.merge("status " + stream.status(), 1, Integer::sum);
                        failed.incrementAndGet();
                        opened.countDown();
                    }
                } catch (Exception failure) {
                    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                    failures.merge(cause.getClass().getSimpleName() + ": " + cause.getMessage(), 1, Integer::sum);
                    failed.incrementAndGet();
                    opened.countDown();
                }
            }));
        }
        boolean all = opened.await(5, TimeUnit.MINUTES);
        long held = sizes.heldStreams() - failed.get();
        if (!failures.isEmpty()) {
            System.out.printf("bench: streams not held, by reason: %s%n", failures);
        }
        service.collectGarbage();
        long heapAfter = heapUsed();
        long residentAfter = service.residentBytes();
        release.countDown();
        for (Thread holder : holders) {
            holder.join();
        }
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            for (String task : hanging) {
                http.post("/api/v1/agents/" + agent + "/tasks/" + task + "/cancel", "{}");
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("asked", sizes.heldStreams());
        json.put("held", held);
        json.put("all_opened_in_time", all);
        json.put("not_held_by_reason", new TreeMap<>(failures));
        report.atLeast("concurrent SSE streams held (asked " + sizes.heldStreams() + ")", held, "streams",
                (double) sizes.heldStreams(), false);
        if (held < MEMORY_RESOLVING_STREAMS) {
            // the heap and the process move by megabytes on their own: a few streams' share of that is noise, not a size
            report.put("held_streams", json);
            System.out.printf("bench: %d streams held; too few to tell the memory of one (at least %d are)%n", held,
                    MEMORY_RESOLVING_STREAMS);
            return;
        }
        double heapPerStream = (heapAfter - heapBefore) / (double) held;
        double residentPerStream = (residentAfter - residentBefore) / (double) held;
        json.put("heap_bytes_per_stream", heapPerStream);
        json.put("resident_bytes_per_stream", residentPerStream);
        report.put("held_streams", json);
        report.atMost("JVM heap per held stream", heapPerStream / 1024, "KiB", null);
        report.atMost("JVM resident memory per held stream", residentPerStream / 1024, "KiB", null);
        System.out.printf("bench: %d streams held; %.1f KiB heap and %.1f KiB resident each%n", held, heapPerStream / 1024,
                residentPerStream / 1024);
    }

    /**
     * Rebuilds the read models from the event store with the service stopped, as an operator would
     * ({@code projections rebuild all}): events folded per second over all read models, each a full pass of the store.
     */
    private void replay(Path dataDir, Path log) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", serviceJar.toString(),
                "projections", "rebuild", "all", "--agent-platform.data-dir=" + dataDir);
        Process rebuild = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!rebuild.waitFor(30, TimeUnit.MINUTES)) {
            rebuild.destroyForcibly();
            throw new IllegalStateException("projections rebuild did not finish in 30 minutes; see " + log);
        }
        long events = 0;
        double seconds = 0;
        boolean equal = true;
        Pattern line = Pattern.compile("^\\s*(\\S+)\\s+([0-9,]+) events in ([0-9.]+) s");
        for (String text : Files.readAllLines(log)) {
            String last = text.substring(text.lastIndexOf('\r') + 1);
            Matcher matched = line.matcher(last);
            if (matched.find()) {
                events += Long.parseLong(matched.group(2).replace(",", ""));
                seconds += Double.parseDouble(matched.group(3));
            }
            equal &= !last.contains("DIFFERS");
        }
        double rate = events / Math.max(0.001, seconds);
        report.put("replay", Map.of("exit", rebuild.exitValue(), "events_folded", events, "seconds", seconds, "all_equal", equal,
                "log", log.toString()));
        report.atLeast("projection replay events/s (rebuild from the event store)", rate, "ev/s", null, true);
        System.out.printf("bench: rebuilt every read model: %,d events folded in %.1f s (%,.0f ev/s), exit %d, %s%n", events, seconds, rate,
                rebuild.exitValue(), equal ? "all equal to the live tables" : "SOME DIFFERED");
    }

    private long heapUsed() {
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            String body = http.get("/actuator/metrics/jvm.memory.used?tag=area:heap").body();
            return Platform.JSON.readTree(body).at("/measurements/0/value").asLong();
        }
    }

    private String metrics() {
        try (HttpConnection http = new HttpConnection(HOST, service.port(), key)) {
            return http.get("/actuator/prometheus").body();
        }
    }

    /** The application's own series (agent_platform_*) whose values changed during the run, with before and after. */
    private static Map<String, Object> movedMetrics(String before, String after) {
        Map<String, String> earlier = Platform.series(before);
        Map<String, Object> moved = new LinkedHashMap<>();
        Platform.series(after).forEach((series, value) -> {
            if (series.startsWith("agent_platform_") && !value.equals(earlier.get(series))) {
                moved.put(series, earlier.getOrDefault(series, "absent") + " -> " + value);
            }
        });
        return moved;
    }

    private long unfinishedTasks() throws Exception {
        return backlog.unfinished();
    }

    /** Waits until every task created so far has finished; answers how many have not. */
    private long awaitDrained() throws Exception {
        return backlog.awaitDrained(sizes.drainPatience());
    }

    private String tasksPath() {
        return "/api/v1/agents/" + agent + "/tasks";
    }


    private static Map<String, Object> machine() throws IOException {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("memory_gib", Math.round(java.lang.management.ManagementFactory.getPlatformMXBean(
                com.sun.management.OperatingSystemMXBean.class).getTotalMemorySize() / (1024.0 * 1024 * 1024)));
        try (Stream<String> cpu = Files.lines(Path.of("/proc/cpuinfo"))) {
            machine.put("cpu", cpu.filter(line -> line.startsWith("model name")).findFirst().map(line -> line.substring(line.indexOf(':') + 2))
                    .orElse("unknown"));
        }
        machine.put("java", System.getProperty("java.version"));
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return machine;
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
