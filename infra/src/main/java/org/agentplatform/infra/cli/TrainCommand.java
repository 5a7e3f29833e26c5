package org.agentplatform.infra.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.agentplatform.infra.AgentPlatformApplication;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -XX:AOTCacheOutput=agent-platform.aot -jar agent-platform.jar train [--seconds N]}
 * <p>
 * The training run of the ahead-of-time cache (JEP 483, 514, 515; docs/decisions.md, "Start-up"): starts the service on
 * a throwaway embedded PostgreSQL in a temporary directory, drives its hot paths through real HTTP for a while (tasks
 * with streamed replies and signed webhooks to a receiver of its own, synchronous invokes, a conversation's turns, the
 * reads and streams clients make), stops it and deletes the directory. The JVM then writes the classes it loaded and
 * linked and the profiles of the methods it ran, which a JVM started with {@code -XX:AOTCache} takes instead of
 * loading, linking and profiling them again. A workload that fails is said, and the run still ends 0: the cache of
 * what ran is still good, and a build must not fail on an optimisation. Exit 2: usage.
 */
public final class TrainCommand {

    public static final String NAME = "train";
    static final String USAGE = "usage: java -XX:AOTCacheOutput=<file.aot> -jar agent-platform.jar train [--seconds <n, default 20>]";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int CLIENTS = 8;
    /** How long past its load the workload may take to finish its last requests. */
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private TrainCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        Duration load = Duration.ofSeconds(20);
        if (args.length == 2 && args[0].equals("--seconds") && args[1].matches("\\d{1,4}")) {
            load = Duration.ofSeconds(Long.parseLong(args[1]));
        } else if (args.length != 0) {
            out.println(USAGE);
            return 2;
        }
        Path home = null;
        try {
            home = Files.createTempDirectory("agent-platform-train");
            try (ConfigurableApplicationContext service = SpringApplication.run(AgentPlatformApplication.class, "--server.port=0",
                    "--agent-platform.data-dir=" + home, "--agent-platform.control.real-x=false",
                    "--agent-platform.webhooks.allowed-networks=127.0.0.1/32", "--logging.level.root=WARN")) {
                int port = ((WebServerApplicationContext) service).getWebServer().getPort();
                String key = Files.readString(home.resolve(FirstStart.KEY_FILE), StandardCharsets.US_ASCII).strip();
                long requests = new Workload(URI.create("http://127.0.0.1:" + port), key).run(load);
                out.println("train: " + requests + " requests in " + load.toSeconds() + " s of load");
            }
        } catch (Exception failed) {
            out.println("train: the workload failed (" + failed + "); the cache holds what ran until then");
        } finally {
            delete(home);
        }
        return 0;
    }

    /** The hot paths, from {@link #CLIENTS} clients at once, until {@code load} has passed; answers how many requests were made. */
    private static final class Workload {

        private final URI base;
        private final String key;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        private final AtomicLong requests = new AtomicLong();

        Workload(URI base, String key) {
            this.base = base;
            this.key = key;
        }

        long run(Duration load) throws Exception {
            String bench = call("POST", "/api/v1/api-keys", Map.of("name", "train", "rate_limit_per_minute", 100_000), 201).at("/data/key").asString();
            Workload trained = new Workload(base, bench);
            String instance = trained.call("POST", "/api/v1/instances", Map.of("provider", "local", "region", "local", "kind", "linux"), 201)
                    .at("/data/id").asString();
            trained.await(() -> trained.call("GET", "/api/v1/instances/" + instance, null, 200), found -> "running".equals(
                    found.at("/data/status").asString()));
            String operation = trained.call("POST", "/api/v1/instances/" + instance + "/methods", Map.of("jsonrpc", "2.0", "id", 1,
                    "method", "agent/create", "params", Map.of("name", "trainer")), 202).at("/result/id").asString();
            String agent = trained.await(() -> trained.call("GET", "/api/v1/instances/" + instance + "/operations/" + operation, null, 200),
                    found -> "succeeded".equals(found.get("status").asString())).at("/projection/platformAgentId").asString();
            trained.await(() -> trained.call("GET", "/api/v1/agents/" + agent, null, 200), found -> true);

            HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            receiver.createContext("/", exchange -> {
                try (InputStream body = exchange.getRequestBody()) {
                    body.readAllBytes();
                }
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            receiver.start();
            String webhook = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            Instant end = Instant.now().plus(load);
            // daemon clients, not awaited on the way out: a request that never ends (a bug the training found) cannot hold
            // the build; the run gives up PATIENCE after the load and the service's shutdown ends the connections
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS, Thread.ofPlatform().daemon().name("train-", 0).factory());
            try {
                List<CompletableFuture<Void>> running = new ArrayList<>();
                for (int client = 0; client < CLIENTS; client++) {
                    int number = client;
                    running.add(CompletableFuture.runAsync(() -> trained.loop(agent, webhook, number, end), clients));
                }
                CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(load.plus(PATIENCE).toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                clients.shutdownNow();
                receiver.stop(0);
            }
            return requests.get() + trained.requests.get();
        }

        /** One client's round, again and again: what each of the API's users does most. */
        private void loop(String agent, String webhook, int client, Instant end) {
            String tasks = "/api/v1/agents/" + agent + "/tasks";
            String conversation = call("POST", "/api/v1/agents/" + agent + "/conversations", Map.of("title", "training " + client), 201)
                    .at("/data/conversation_id").asString();
            for (int round = 0; Instant.now().isBefore(end); round++) {
                Map<String, Object> body = round % 4 == 0
                        ? Map.of("message", "train " + round + "\n/echo deltas=3", "webhooks", List.of(Map.of("url", webhook,
                                "secret", "whsec-training-0123456789")))
                        : Map.of("message", "train " + round + "\n/echo deltas=2");
                String task = call("POST", tasks, body, 202).at("/data/task_id").asString();
                stream(tasks + "/" + task + "/events");
                call("GET", tasks + "/" + task, null, 200);
                if (round % 2 == 0) {
                    call("POST", "/api/v1/agents/" + agent + "/invoke", Map.of("message", "invoke " + round + "\n/echo deltas=1"), 200);
                }
                if (round % 3 == 0) {
                    String messages = "/api/v1/agents/" + agent + "/conversations/" + conversation + "/messages";
                    call("POST", messages, Map.of("message", "turn " + round + "\n/echo deltas=2"), 202);
                    call("GET", messages, null, 200);
                }
                if (round % 5 == 0) {
                    call("GET", tasks + "?limit=20", null, 200);
                    call("GET", "/api/v1/tasks?limit=20", null, 200);
                    call("GET", "/api/v1/agents/" + agent, null, 200);
                }
            }
        }

        private JsonNode call(String method, String path, Object body, int expected) {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + key);
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            }
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                requests.incrementAndGet();
                if (response.statusCode() != expected) {
                    throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
                }
                return JSON.readTree(response.body());
            } catch (IOException failed) {
                throw new IllegalStateException(method + " " + path + " failed", failed);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
        }

        /** Reads a task's event stream to its end (the stream closes once the task is done). */
        private void stream(String path) {
            HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + key).header("Accept", "text/event-stream").build();
            try {
                HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
                requests.incrementAndGet();
                try (Stream<String> lines = response.body()) {
                    lines.forEach(line -> { });
                }
            } catch (IOException failed) {
                throw new IllegalStateException("GET " + path + " failed", failed);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
        }

        private JsonNode await(java.util.function.Supplier<JsonNode> read, Predicate<JsonNode> done) throws InterruptedException {
            Instant giveUp = Instant.now().plus(Duration.ofMinutes(2));
            while (true) {
                try {
                    JsonNode found = read.get();
                    if (done.test(found)) {
                        return found;
                    }
                } catch (IllegalStateException notYet) {
                    if (Instant.now().isAfter(giveUp)) {
                        throw notYet;
                    }
                }
                if (Instant.now().isAfter(giveUp)) {
                    throw new IllegalStateException("the training's set-up did not finish within two minutes");
                }
                // the set-up's resources are asynchronous: a client learns of a change by reading again
                Thread.sleep(100);
            }
        }
    }

    private static void delete(Path home) {
        if (home == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is the system's to clean
        }
    }
}
