package org.agentplatform.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code cold} phase (issue 41): the service jar started fresh as after a deploy, from the same jar extracted into
 * plain jars, once without and once with an ahead-of-time cache the phase trains itself ({@code train}, as the build
 * does), then restarted on its existing data directory with the cache. For each start: the time to healthy, the time to
 * the first 202 (a key, an instance and an agent made first, as a new user would), and creates/s with their p99 in each
 * of the first windows of the burst load, as ratios to the same load on the warm service of the same run. The JVM's
 * own log says whether the cache was used (opened, and mapped without an error); on a JDK that has no AOT cache (before
 * 25) the cache's starts are left out and said so.
 */
final class Cold {

    private static final String HOST = "127.0.0.1";

    private final Path serviceJar;
    private final List<String> javaOptions;
    private final List<String> settings;
    private final int clients;
    private final Duration window;
    private final int windows;
    private final int trainingSeconds;
    private final Report report;
    private Load.Result warm;

    Cold(Path serviceJar, List<String> javaOptions, List<String> settings, boolean smoke, int clients, Report report) {
        this.serviceJar = serviceJar;
        this.javaOptions = javaOptions;
        this.settings = settings;
        this.clients = clients;
        this.window = smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10);
        this.windows = smoke ? 2 : 6;
        this.trainingSeconds = smoke ? 2 : 20;
        this.report = report;
    }

    /** The same load on the warm service of the run: the reference of every ratio. */
    void measureWarm(Service service, String key, String agent) throws InterruptedException {
        warm = burst(service.port(), key, agent, window);
        report.put("cold_warm_reference", Map.of("creates_per_second", warm.perSecond(), "latency", warm.latency().json()));
    }

    void run(Path scratch, Path out, String name) throws Exception {
        if (warm == null) {
            throw new IllegalStateException("the cold phase compares with the warm service: measureWarm first");
        }
        Path app = scratch.resolve("cold-app");
        java("extract", List.of("-Djarmode=tools", "-jar", serviceJar.toString(), "extract", "--force", "--destination", app.toString()),
                out.resolve(name + "-cold-extract.log"));
        Path jar = app.resolve("agent-platform.jar");
        Map<String, Object> phase = new LinkedHashMap<>();
        phase.put("without_cache", start("without the cache", jar, List.of(), scratch.resolve("cold-plain"), out.resolve(name + "-cold-plain.log")));
        if (Runtime.version().feature() < 25) {
            phase.put("with_cache", "JDK " + Runtime.version().feature() + " has no ahead-of-time cache (25+ has)");
            report.put("cold", phase);
            return;
        }
        Path cache = app.resolve("agent-platform.aot");
        long trainStart = System.nanoTime();
        Path trainLog = out.resolve(name + "-cold-train.log");
        List<String> training = new ArrayList<>(Service.JVM_OPTIONS);
        training.addAll(javaOptions);
        training.addAll(List.of("-XX:AOTCacheOutput=" + cache, "-Xlog:aot=error", "-jar", jar.toString(), "train", "--seconds",
                Integer.toString(trainingSeconds)));
        java("train", training, trainLog);
        if (Files.readAllLines(trainLog).stream().noneMatch(line -> line.startsWith("train: ") && !line.contains("failed"))) {
            throw new IllegalStateException("the training run's workload failed; see " + trainLog);
        }
        phase.put("training_seconds", (System.nanoTime() - trainStart) / 1e9);
        List<String> withCache = List.of("-XX:AOTCache=" + cache, "-Xlog:aot=info");
        Path dataDir = scratch.resolve("cold-cached");
        Map<String, Object> fresh = start("with the cache", jar, withCache, dataDir, out.resolve(name + "-cold-cached.log"));
        phase.put("with_cache", fresh);
        Map<String, Object> existing = start("with the cache, on its existing data", jar, withCache, dataDir,
                out.resolve(name + "-cold-cached-again.log"));
        phase.put("with_cache_existing_data", existing);
        report.put("cold", phase);

        report.atMost("cold start to healthy, fresh data, with the AOT cache", (double) fresh.get("healthy_seconds"), "s", 8.0);
        report.atMost("cold start to healthy, existing data, with the AOT cache", (double) existing.get("healthy_seconds"), "s", 5.0);
        report.atMost("cold start to healthy with / without the AOT cache (fresh data)",
                (double) fresh.get("healthy_seconds") / (double) ((Map<?, ?>) phase.get("without_cache")).get("healthy_seconds"), "x", null);
        report.atLeast("cold first minute creates/s / warm, with the AOT cache", (double) fresh.get("creates_ratio_to_warm"), "x", 0.8, false);
        report.atMost("cold first minute create p99 / warm, with the AOT cache", (double) fresh.get("p99_ratio_to_warm"), "x", 2.0);
        report.atLeast("cold first minute creates/s / warm, without the cache",
                (double) ((Map<?, ?>) phase.get("without_cache")).get("creates_ratio_to_warm"), "x", null, false);
    }

    /** One start: healthy, first 202, then the windows of load; whether the JVM said it used the cache. */
    private Map<String, Object> start(String what, Path jar, List<String> cacheOptions, Path dataDir, Path log) throws Exception {
        System.out.println("bench: cold start " + what + " (log: " + log + ")");
        List<String> options = new ArrayList<>(javaOptions);
        options.addAll(cacheOptions);
        long start = System.nanoTime();
        Map<String, Object> figures = new LinkedHashMap<>();
        try (Service service = Service.start(jar, options, dataDir, log, settings)) {
            double healthy = (System.nanoTime() - start) / 1e9;
            Platform.Target target = Platform.setUp(HOST, service);
            try (HttpConnection http = new HttpConnection(HOST, service.port(), target.key())) {
                Platform.ok(http.post("/api/v1/agents/" + target.agent() + "/tasks", Platform.echoTask("first")), 202);
            }
            double firstAccepted = (System.nanoTime() - start) / 1e9;
            List<Map<String, Object>> measured = new ArrayList<>();
            long ok = 0;
            double seconds = 0;
            double worstP99 = 0;
            for (int index = 0; index < windows; index++) {
                Load.Result result = burst(service.port(), target.key(), target.agent(), window);
                measured.add(Map.of("creates_per_second", result.perSecond(), "p99_ms", result.latency().p99(),
                        "ratio_to_warm", result.perSecond() / warm.perSecond()));
                ok += result.ok();
                seconds += result.seconds();
                worstP99 = Math.max(worstP99, result.latency().p99());
            }
            figures.put("healthy_seconds", healthy);
            figures.put("first_202_seconds", firstAccepted);
            figures.put("windows", measured);
            figures.put("creates_ratio_to_warm", ok / seconds / warm.perSecond());
            figures.put("p99_ratio_to_warm", worstP99 / warm.latency().p99());
        }
        if (!cacheOptions.isEmpty()) {
            // opened is not used: a JVM that opens the cache and then cannot map it (options unlike the training's) says so
            // in an error line and goes on without it
            List<String> lines = Files.readAllLines(log);
            boolean used = lines.stream().anyMatch(line -> line.contains("Opened AOT cache"))
                    && lines.stream().noneMatch(line -> line.contains("[error][aot]") || line.contains("Unable to map shared spaces"));
            figures.put("cache_used", used);
            if (!used) {
                throw new IllegalStateException("the service started with -XX:AOTCache did not use the cache; see " + log);
            }
        }
        System.out.printf("bench: cold %s: healthy in %.1f s, first 202 at %.1f s, first windows at %.2fx warm creates/s%n", what,
                (double) figures.get("healthy_seconds"), (double) figures.get("first_202_seconds"), (double) figures.get("creates_ratio_to_warm"));
        return figures;
    }

    private Load.Result burst(int port, String key, String agent, Duration lasting) throws InterruptedException {
        return Load.closedLoop(HOST, port, key, clients, lasting, "/api/v1/agents/" + agent + "/tasks", 202,
                n -> Platform.echoTask("cold " + n));
    }

    private static void java(String what, List<String> arguments, Path log) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(what + " failed; see " + log);
        }
    }
}
