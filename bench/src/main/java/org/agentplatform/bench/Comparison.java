package org.agentplatform.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Two builds of the service compared in one run ({@code --against OTHER_JAR}): both are started (each on its own
 * embedded PostgreSQL), warmed up in turns, then loaded in alternating bursts, A B A B ..., so that the box's drift,
 * which moves single runs by a third within minutes, falls on both alike. Each round's burst is the 32-connection
 * create burst carried to completion, then tasks watched from their create to their stream's first {@code task_status}
 * frame under an open-loop background of creates, then creates at a steady open-loop rate carried to completion (what a
 * task costs when tasks come one by one, as in the sustained phase, not together as in a burst); a round reports creates/s,
 * p50 and p99, completions, JVM and PostgreSQL CPU per task and the first frame's p50 and p99 for each build, and at the
 * steady rate JVM and PostgreSQL CPU per task, create -> done p99, and the p50 and p99 of synchronous invokes sent one after
 * the other beside it (interactive work on a node busy with tasks); the summary the median of each figure and of the
 * rounds' ratios B/A.
 */
final class Comparison {

    private static final String HOST = "127.0.0.1";

    /** One build, started and set up. */
    private record Build(String name, Service service, Platform.Target target, Backlog backlog) implements AutoCloseable {

        static Build start(String name, Service service) throws Exception {
            try {
                return new Build(name, service, Platform.setUp(HOST, service), new Backlog(service));
            } catch (Exception failure) {
                service.close();
                throw failure;
            }
        }

        String tasks() {
            return "/api/v1/agents/" + target.agent() + "/tasks";
        }

        @Override
        public void close() throws Exception {
            backlog.close();
            service.close();
        }
    }

    /** What one burst of one build measured. */
    record Round(String build, double createsPerSecond, double p50, double p99, double completedPerSecond, double jvmMsPerTask,
            double postgresMsPerTask, double firstFrameP50, double firstFrameP99, double steadyJvmMsPerTask,
            double steadyPostgresMsPerTask, double steadyDoneP99, double steadyInvokeP50, double steadyInvokeP99) {
    }

    /** A figure of a round, by its name in the summary. */
    private record Figure(String name, ToDoubleFunction<Round> of) {
    }

    private static final List<Figure> FIGURES = List.of(new Figure("creates/s", Round::createsPerSecond), new Figure("p50 ms", Round::p50),
            new Figure("p99 ms", Round::p99), new Figure("completed/s", Round::completedPerSecond),
            new Figure("JVM CPU ms per task", Round::jvmMsPerTask), new Figure("PostgreSQL CPU ms per task", Round::postgresMsPerTask),
            new Figure("first frame p50 ms", Round::firstFrameP50), new Figure("first frame p99 ms", Round::firstFrameP99),
            new Figure("steady: JVM CPU ms per task", Round::steadyJvmMsPerTask),
            new Figure("steady: PostgreSQL CPU ms per task", Round::steadyPostgresMsPerTask),
            new Figure("steady: create -> done p99 ms", Round::steadyDoneP99),
            new Figure("steady: invoke p50 ms", Round::steadyInvokeP50),
            new Figure("steady: invoke p99 ms", Round::steadyInvokeP99));
    /** The pause between one of the steady phase's invokes and the next. */
    private static final Duration INVOKE_SPACING = Duration.ofMillis(200);
    /** How long a burst's backlog may take to drain. */
    private static final Duration DRAIN_PATIENCE = Duration.ofMinutes(5);

    private final int clients;
    private final Duration burst;
    private final int rounds;
    private final int warmupRounds;
    private final int frameSamples;
    private final double frameBackgroundRate;
    private final double steadyRate;
    private final Duration steadyWindow;

    /**
     * {@code frameSamples} tasks watched per round, under {@code frameBackgroundRate} creates a second; then
     * {@code steadyRate} creates a second for {@code steadyWindow}.
     */
    Comparison(int clients, Duration burst, int rounds, int warmupRounds, int frameSamples, double frameBackgroundRate, double steadyRate,
            Duration steadyWindow) {
        this.clients = clients;
        this.burst = burst;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.frameSamples = frameSamples;
        this.frameBackgroundRate = frameBackgroundRate;
        this.steadyRate = steadyRate;
        this.steadyWindow = steadyWindow;
    }

    /** Runs the comparison; its report goes to {@code report}. */
    void run(Path jarA, Path jarB, List<String> optionsA, List<String> optionsB, List<String> settings, Path scratch, Path logs, String name,
            Report report) throws Exception {
        System.out.println("bench: comparing A " + jarA + " " + optionsA + " and B " + jarB + " " + optionsB);
        try (Build a = Build.start("A", Service.start(jarA, optionsA, scratch.resolve("a"), logs.resolve(name + "-service-a.log"), settings));
             Build b = Build.start("B", Service.start(jarB, optionsB, scratch.resolve("b"), logs.resolve(name + "-service-b.log"), settings))) {
            for (int round = 1; round <= warmupRounds; round++) {
                for (Build build : List.of(a, b)) {
                    Load.closedLoop(HOST, build.service().port(), build.target().key(), clients, Duration.ofSeconds(15), build.tasks(), 202,
                            n -> Platform.echoTask("warm up " + n));
                    build.backlog().awaitDrained(DRAIN_PATIENCE);
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
                                    + " JVM %.2f ms and PostgreSQL %.2f ms CPU per task; first frame p50 %.1f ms, p99 %.1f ms;"
                                    + " steady: JVM %.2f ms and PostgreSQL %.2f ms CPU per task, create -> done p99 %.0f ms,"
                                    + " invoke p50 %.1f ms, p99 %.1f ms%n", round,
                            build.name(), result.createsPerSecond(), result.p50(), result.p99(), result.completedPerSecond(),
                            result.jvmMsPerTask(), result.postgresMsPerTask(), result.firstFrameP50(), result.firstFrameP99(),
                            result.steadyJvmMsPerTask(), result.steadyPostgresMsPerTask(), result.steadyDoneP99(), result.steadyInvokeP50(),
                            result.steadyInvokeP99());
                }
            }
            report(measured, jarA, jarB, report);
        }
    }

    private Round burst(Build build) throws Exception {
        Service service = build.service();
        double jvmBefore = service.jvmCpuSeconds();
        double postgresBefore = service.postgresCpuSeconds();
        long start = System.nanoTime();
        Load.Result result = Load.closedLoop(HOST, service.port(), build.target().key(), clients, burst, build.tasks(), 202,
                n -> Platform.echoTask("burst " + n));
        build.backlog().awaitDrained(DRAIN_PATIENCE);
        double seconds = (System.nanoTime() - start) / 1e9;
        double tasks = Math.max(1, result.ok());
        double jvmMsPerTask = (service.jvmCpuSeconds() - jvmBefore) * 1000 / tasks;
        double postgresMsPerTask = (service.postgresCpuSeconds() - postgresBefore) * 1000 / tasks;
        Latencies.Summary firstFrame = new FirstFrames(HOST, build.target().key(), build.target().agent())
                .underBackground(frameSamples, service.port(), frameBackgroundRate).firstFrame().summary();
        build.backlog().awaitDrained(DRAIN_PATIENCE);
        Steady steady = steady(build);
        return new Round(build.name(), result.perSecond(), result.latency().p50(), result.latency().p99(), result.ok() / seconds,
                jvmMsPerTask, postgresMsPerTask, firstFrame.p50(), firstFrame.p99(), steady.jvmMsPerTask(), steady.postgresMsPerTask(),
                steady.doneP99(), steady.invoke().p50(), steady.invoke().p99());
    }

    /**
     * What the steady open loop measured: CPU per task and create -> done p99 (as the store has each task's instants; the
     * invokes are tasks too, about one for every 70 created at 300/s), and the invokes sent beside it.
     */
    private record Steady(double jvmMsPerTask, double postgresMsPerTask, double doneP99, Latencies.Summary invoke) {
    }

    private Steady steady(Build build) throws Exception {
        Service service = build.service();
        String since = build.backlog().now();
        double jvmBefore = service.jvmCpuSeconds();
        double postgresBefore = service.postgresCpuSeconds();
        Latencies invokes = new Latencies();
        List<Bench.Sample> samples = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread invoking = Thread.ofPlatform().start(() -> {
            try (HttpConnection http = new HttpConnection(HOST, service.port(), build.target().key())) {
                while (!stop.get()) {
                    samples.add(Bench.invoke(http, build.target().agent(), invokes));
                    Thread.sleep(INVOKE_SPACING.toMillis());
                }
            } catch (Exception failure) {
                failed.set(failure);
            }
        });
        Load.Result result;
        try {
            result = Load.openLoop(HOST, service.port(), build.target().key(), clients, steadyRate, steadyWindow, build.tasks(), 202,
                    n -> Platform.echoTask("steady " + n));
        } finally {
            stop.set(true);
            invoking.join();
        }
        if (failed.get() != null) {
            throw failed.get();
        }
        build.backlog().awaitDrained(DRAIN_PATIENCE);
        double tasks = Math.max(1, result.ok());
        double jvmMsPerTask = (service.jvmCpuSeconds() - jvmBefore) * 1000 / tasks;
        double postgresMsPerTask = (service.postgresCpuSeconds() - postgresBefore) * 1000 / tasks;
        List<Bench.Sample> byTime = samples.stream().sorted(Comparator.comparingLong(Bench.Sample::millis)).toList();
        if (!byTime.isEmpty()) {
            System.out.println("bench: " + build.name() + " steady: the median invoke, stage by stage: "
                    + Bench.stagesOf(build.backlog().connection(), List.of(byTime.get(byTime.size() / 2)))
                    + "; the slowest two: " + Bench.slowestStages(build.backlog().connection(), byTime, 2));
        }
        return new Steady(jvmMsPerTask, postgresMsPerTask, build.backlog().createToDone(since, build.target().agent()).get("p99_ms"),
                invokes.summary());
    }

    private static void report(List<Round> measured, Path jarA, Path jarB, Report report) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("a", jarA.toString());
        json.put("b", jarB.toString());
        json.put("rounds", measured);
        Map<String, Object> medians = new LinkedHashMap<>();
        System.out.printf("%nfigure                              median A     median B   median B/A   B/A of the rounds (min..max)%n");
        for (Figure figure : FIGURES) {
            List<Double> a = values(measured, "A", figure);
            List<Double> b = values(measured, "B", figure);
            List<Double> ratios = new ArrayList<>();
            for (int index = 0; index < Math.min(a.size(), b.size()); index++) {
                ratios.add(b.get(index) / a.get(index));
            }
            double ratio = median(ratios);
            medians.put(figure.name(), Map.of("a", median(a), "b", median(b), "b_over_a", ratio));
            System.out.printf(Locale.ROOT, "%-32s %11.2f %12.2f %12.3f   %.3f..%.3f%n", figure.name(), median(a), median(b), ratio,
                    ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
        }
        json.put("medians", medians);
        report.put("comparison", json);
    }

    private static List<Double> values(List<Round> measured, String build, Figure figure) {
        return measured.stream().filter(round -> round.build().equals(build)).map(round -> figure.of().applyAsDouble(round)).toList();
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

}
