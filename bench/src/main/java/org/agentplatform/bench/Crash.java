package org.agentplatform.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
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
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * The crash suite, as an operator's worst day: the service jar on its embedded PostgreSQL under mixed load (tasks with
 * webhooks to a real receiver, one that fails now and then, on three threads; conversation messages on one, paced as a
 * conversation answers them; runtime method calls on two) is killed
 * with SIGKILL at a random moment of every round and started again on the same data directory. Then, with the load
 * stopped, it checks what the platform promised for everything it answered 2xx: each task, message and operation exists
 * and ends (none lost, none stuck), each task's transitions reached its receiver in order, a transition delivered twice
 * only when a kill fell between the two receipts, every read model equals its rebuild from the event store
 * ({@code projections rebuild all}) and the audit chain verifies ({@code audit verify}).
 * <p>
 * {@code bench/crash [--smoke] [--rounds N] [--seed S]}: 20 rounds, or 3 with {@code --smoke} (CI runs it). Exits 1 when
 * any check fails; the report goes to {@code bench/results/crash-<time>.json}.
 */
public final class Crash {

    private static final String HOST = "127.0.0.1";
    private static final String SECRET = "whsec-crash-suite-0123456789";
    /** How long a silent turn waits before another node (or the restarted one) takes it over. */
    private static final Duration TAKEOVER = Duration.ofSeconds(4);
    /** How long everything may take to end once the load stops: a turn taken over, a webhook's retries. */
    private static final Duration SETTLE = Duration.ofMinutes(3);
    private static final List<String> SETTINGS = List.of(
            "--agent-platform.webhooks.allowed-networks=127.0.0.1/32",
            "--agent-platform.webhooks.retry-delays=1s,1s,1s,1s,1s",
            "--agent-platform.operations.sweep-interval=1s",
            "--agent-platform.tasks.turn-takeover=" + TAKEOVER.toSeconds() + "s",
            "--agent-platform.control.real-x=false");
    private static final Set<String> TERMINAL_TASK = Set.of("completed", "failed", "canceled", "timeout", "rejected");
    private static final Set<String> TERMINAL_OPERATION = Set.of("succeeded", "failed", "cancelled", "expired", "outcome_unknown");

    private final Path jar;
    private final Path out;
    private final int rounds;
    private final Random random;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Receiver receiver;
    private Service service;
    private String key;
    private String instance;
    private String agent;
    private final List<String> conversations = new ArrayList<>();

    /** What the service answered 2xx to: the ids it accepted. */
    private final List<String> tasks = new CopyOnWriteArrayList<>();
    private final List<String[]> messages = new CopyOnWriteArrayList<>();
    private final List<String> operations = new CopyOnWriteArrayList<>();

    private Crash(Path jar, Path out, int rounds, long seed) throws IOException {
        this.jar = jar;
        this.out = out;
        this.rounds = rounds;
        this.random = new Random(seed);
        this.receiver = new Receiver(seed);
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of("infra/target/agent-platform.jar");
        Path out = Path.of("bench/results");
        int rounds = 20;
        long seed = System.nanoTime();
        for (int index = 0; index < args.length; index++) {
            switch (args[index]) {
                case "--service-jar" -> jar = Path.of(args[++index]);
                case "--out" -> out = Path.of(args[++index]);
                case "--smoke" -> rounds = 3;
                case "--rounds" -> rounds = Integer.parseInt(args[++index]);
                case "--seed" -> seed = Long.parseLong(args[++index]);
                default -> throw new IllegalArgumentException("usage: crash [--smoke] [--rounds N] [--seed S] [--service-jar JAR] [--out DIR]");
            }
        }
        System.out.printf("crash: %d rounds, seed %d%n", rounds, seed);
        boolean passed;
        Crash suite = new Crash(jar, out, rounds, seed);
        try {
            passed = suite.run(seed);
        } finally {
            suite.receiver.close();
        }
        System.exit(passed ? 0 : 1);
    }

    private boolean run(long seed) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path scratch = Files.createDirectories(out.resolve("crash-" + stamp));
        Path dataDir = scratch.resolve("data");
        service = Service.start(jar, List.of(), dataDir, scratch.resolve("service-0.log"), SETTINGS);
        setUp();
        List<Instant> kills = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            long millis = 800 + random.nextInt(2_700);
            int before = tasks.size() + messages.size() + operations.size();
            load(round, Duration.ofMillis(millis), () -> {
                kills.add(Instant.now());
                receiver.lives.incrementAndGet();
                service.kill();
            });
            System.out.printf("crash: round %d: killed after %d ms, %d accepted in it; starting again%n", round, millis,
                    tasks.size() + messages.size() + operations.size() - before);
            service = Service.start(jar, List.of(), dataDir, scratch.resolve("service-" + round + ".log"), SETTINGS);
        }
        Instant restarted = Instant.now();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("rounds", rounds);
        report.put("seed", seed);
        report.put("accepted", Map.of("tasks", tasks.size(), "messages", messages.size(), "operations", operations.size()));
        List<String> failures = new ArrayList<>();
        settle(report, failures, restarted);
        deliveries(report, failures);
        caughtUp(report, failures);
        service.close();
        offline(dataDir, scratch, report, failures);
        report.put("failures", failures);
        Files.writeString(out.resolve("crash-" + stamp + ".json"), Platform.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println("crash: " + Platform.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.printf("crash: %s; report %s%n", failures.isEmpty() ? "every check holds" : failures.size() + " check(s) FAILED",
                out.resolve("crash-" + stamp + ".json"));
        return failures.isEmpty();
    }

    private void setUp() throws Exception {
        try (HttpConnection first = new HttpConnection(HOST, service.port(), service.firstKey())) {
            key = new Platform(first).benchKey();
        }
        try (HttpConnection connection = new HttpConnection(HOST, service.port(), key)) {
            Platform platform = new Platform(connection);
            instance = platform.runningInstance();
            agent = platform.echoAgent(instance);
        }
        for (int index = 0; index < 4; index++) {
            conversations.add(call("POST", "/api/v1/agents/" + agent + "/conversations", Map.of("title", "crash " + index), 201)
                    .at("/data/conversation_id").asString());
        }
    }

    /** Mixed load on a few threads until {@code lasting} has passed; then {@code kill}, and the load threads stop. */
    private void load(int round, Duration lasting, KillStep kill) throws Exception {
        AtomicBoolean going = new AtomicBoolean(true);
        ExecutorService clients = Executors.newFixedThreadPool(6);
        AtomicInteger sequence = new AtomicInteger();
        for (int thread = 0; thread < 6; thread++) {
            int kind = thread;
            clients.execute(() -> {
                while (going.get()) {
                    int n = sequence.incrementAndGet();
                    try {
                        switch (kind < 3 ? 0 : kind - 2) {
                            case 0 -> {
                                String path = n % 2 == 0 ? "/steady" : "/flaky";
                                JsonNode created = call("POST", "/api/v1/agents/" + agent + "/tasks", Map.of(
                                        "message", "crash " + round + "." + n + "\n/echo deltas=2 take_ms=" + (n * 37 % 1_500),
                                        "webhooks", List.of(Map.of("url", receiver.url(path), "secret", SECRET))), 202);
                                tasks.add(created.at("/data/task_id").asString());
                            }
                            case 1 -> {
                                String conversation = conversations.get(n % conversations.size());
                                JsonNode posted = call("POST", "/api/v1/agents/" + agent + "/conversations/" + conversation + "/messages",
                                        Map.of("message", "hello " + round + "." + n + "\n/echo take_ms=" + (n * 53 % 400)), 202);
                                messages.add(new String[] {conversation, posted.at("/data/message_id").asString()});
                                // a conversation answers one message at a time: about as many are posted as its turns end
                                Thread.sleep(100);
                            }
                            default -> {
                                JsonNode called = call("POST", "/api/v1/instances/" + instance + "/methods",
                                        Map.of("jsonrpc", "2.0", "id", n, "method", "cron/list", "params", Map.of()), 202);
                                operations.add(called.at("/result/id").asString());
                            }
                        }
                    } catch (IOException | IllegalStateException | NotFound refusedOrGone) {
                        // not accepted (the service is going or gone): nothing was promised
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            });
        }
        Thread.sleep(lasting);
        kill.run();
        going.set(false);
        clients.shutdown();
        clients.awaitTermination(30, TimeUnit.SECONDS);
    }

    @FunctionalInterface
    private interface KillStep {
        void run() throws Exception;
    }

    /** Every accepted id: found (never 404), and ended within the settle time; how long the slowest took after the restart. */
    private void settle(Map<String, Object> report, List<String> failures, Instant restarted) throws Exception {
        Instant giveUp = restarted.plus(SETTLE);
        List<String> lost = new ArrayList<>();
        List<String> open = new ArrayList<>();
        for (String task : tasks) {
            String status = awaitState(() -> call("GET", "/api/v1/agents/" + agent + "/tasks/" + task, null, 200).at("/data/status")
                    .asString(), TERMINAL_TASK::contains, giveUp, lost, task);
            if (status != null && !TERMINAL_TASK.contains(status)) {
                open.add("task " + task + " " + status);
            }
        }
        for (String operation : operations) {
            String status = awaitState(() -> call("GET", "/api/v1/instances/" + instance + "/operations/" + operation, null, 200)
                    .get("status").asString(), TERMINAL_OPERATION::contains, giveUp, lost, operation);
            if (status != null && !TERMINAL_OPERATION.contains(status)) {
                open.add("operation " + operation + " " + status);
            }
        }
        for (String conversation : conversations) {
            List<String> accepted = messages.stream().filter(message -> message[0].equals(conversation)).map(message -> message[1]).toList();
            Set<String> answered = awaitAnswered(conversation, accepted, giveUp);
            accepted.stream().filter(message -> !answered.contains(message))
                    .forEach(message -> open.add("message " + message + " of conversation " + conversation));
        }
        Duration settled = Duration.between(restarted, Instant.now());
        report.put("lost", lost);
        report.put("not_ended", open);
        report.put("seconds_to_settle_after_the_last_restart", settled.toMillis() / 1000.0);
        if (!lost.isEmpty()) {
            failures.add(lost.size() + " accepted id(s) not found");
        }
        if (!open.isEmpty()) {
            failures.add(open.size() + " accepted id(s) not ended within " + SETTLE.toSeconds() + " s of the last restart");
        }
        System.out.printf("crash: %d lost, %d not ended; everything ended %.1f s after the last restart%n", lost.size(), open.size(),
                settled.toMillis() / 1000.0);
    }

    @FunctionalInterface
    private interface Read {
        String read() throws Exception;
    }

    private static String awaitState(Read read, java.util.function.Predicate<String> ended, Instant giveUp, List<String> lost, String id)
            throws InterruptedException {
        String last = null;
        while (true) {
            try {
                last = read.read();
                if (ended.test(last)) {
                    return last;
                }
            } catch (NotFound notFound) {
                lost.add(id);
                return null;
            } catch (Exception notYet) {
                // the service answers again in a moment
            }
            if (Instant.now().isAfter(giveUp)) {
                return last;
            }
            Thread.sleep(100);
        }
    }

    /** The accepted messages of the conversation whose turn has a final status in its log. */
    private Set<String> awaitAnswered(String conversation, List<String> accepted, Instant giveUp) throws InterruptedException {
        Set<String> answered = Set.of();
        while (true) {
            try {
                answered = answered(conversation);
                if (answered.containsAll(accepted)) {
                    return answered;
                }
            } catch (Exception notYet) {
                // the service answers again in a moment
            }
            if (Instant.now().isAfter(giveUp)) {
                return answered;
            }
            Thread.sleep(200);
        }
    }

    private Set<String> answered(String conversation) throws Exception {
        Map<Integer, String> messageOfTurn = new ConcurrentHashMap<>();
        Set<String> answered = ConcurrentHashMap.newKeySet();
        long since = -1;
        while (true) {
            JsonNode page = call("GET", "/api/v1/agents/" + agent + "/conversations/" + conversation + "/messages?limit=1000"
                    + (since < 0 ? "" : "&since=" + since), null, 200).get("data");
            for (JsonNode row : page.get("messages")) {
                int turn = row.get("turn").asInt();
                if ("user_message".equals(row.get("kind").asString())) {
                    messageOfTurn.put(turn, row.at("/data/message_id").asString());
                } else if ("turn_status".equals(row.get("kind").asString()) && row.get("final").asBoolean()
                        && messageOfTurn.containsKey(turn)) {
                    answered.add(messageOfTurn.get(turn));
                }
            }
            if (!page.path("has_more").asBoolean(false)) {
                return answered;
            }
            since = page.get("next_since").asLong();
        }
    }

    /**
     * Each task's receipts: its transitions in order (repeats of one transition next to each other: retries and
     * re-sends), every transition delivered, and a transition delivered twice only when a kill fell between the receipts.
     */
    private void deliveries(Map<String, Object> report, List<String> failures) throws Exception {
        Instant giveUp = Instant.now().plus(SETTLE);
        Map<String, List<String>> transitions = new LinkedHashMap<>();
        for (String task : tasks) {
            List<String> statuses = new ArrayList<>();
            for (JsonNode event : call("GET", "/api/v1/audit/events?resource_type=task&resource_id=" + task + "&limit=1000", null, 200)
                    .at("/data/events")) {
                if (event.has("data") && event.get("data").has("task") && event.get("type").asString().startsWith("Task")) {
                    String status = status(event.get("type").asString(), event.get("data"));
                    if (status != null) {
                        statuses.add(status);
                    }
                }
            }
            transitions.put(task, statuses);
        }
        while (Instant.now().isBefore(giveUp) && !allDelivered(transitions)) {
            Thread.sleep(200);
        }
        List<String> undelivered = new ArrayList<>();
        List<String> outOfOrder = new ArrayList<>();
        int explained = 0;
        List<String> unexplained = new ArrayList<>();
        for (Map.Entry<String, List<String>> task : transitions.entrySet()) {
            List<Receipt> receipts = receiver.of(task.getKey());
            List<String> order = new ArrayList<>();
            for (Receipt receipt : receipts) {
                if (order.isEmpty() || !order.getLast().equals(receipt.status())) {
                    order.add(receipt.status());
                }
            }
            if (!order.equals(task.getValue())) {
                outOfOrder.add(task.getKey() + ": received " + order + ", transitions " + task.getValue());
            }
            for (String status : task.getValue()) {
                List<Receipt> delivered = receipts.stream().filter(receipt -> receipt.status().equals(status) && receipt.answered() == 200)
                        .toList();
                if (delivered.isEmpty()) {
                    undelivered.add(task.getKey() + " " + status);
                } else if (delivered.size() > 1) {
                    if (delivered.getFirst().life() != delivered.getLast().life()) {
                        explained++;
                    } else {
                        unexplained.add(task.getKey() + " " + status + " x" + delivered.size());
                    }
                }
            }
        }
        report.put("webhooks", Map.of("receipts", receiver.count(), "undelivered", undelivered, "out_of_order", outOfOrder,
                "duplicates_across_a_kill", explained, "duplicates_without_a_kill", unexplained));
        if (!undelivered.isEmpty()) {
            failures.add(undelivered.size() + " transition(s) never delivered");
        }
        if (!outOfOrder.isEmpty()) {
            failures.add(outOfOrder.size() + " task(s) with transitions received out of order");
        }
        if (!unexplained.isEmpty()) {
            failures.add(unexplained.size() + " transition(s) delivered twice without a kill between");
        }
        System.out.printf("crash: %d receipts; %d undelivered, %d out of order, %d duplicates across a kill, %d without%n",
                receiver.count(), undelivered.size(), outOfOrder.size(), explained, unexplained.size());
    }

    private boolean allDelivered(Map<String, List<String>> transitions) {
        for (Map.Entry<String, List<String>> task : transitions.entrySet()) {
            List<Receipt> receipts = receiver.of(task.getKey());
            for (String status : task.getValue()) {
                if (receipts.stream().noneMatch(receipt -> receipt.status().equals(status) && receipt.answered() == 200)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The wire status an event of the task leads to; null for one that is no transition (a turn handed over that waits for a
     * worker: the task stays queued). Starts stored before turns were told begun ({@code waits} absent) meant running.
     */
    private static String status(String eventType, JsonNode data) {
        boolean waits = data.path("waits").asBoolean(false);
        return switch (eventType) {
            case "TaskCreated" -> "queued";
            case "TaskStarted" -> waits ? null : "running";
            case "TaskContinued" -> waits ? "queued" : "running";
            case "TaskTurnBegan" -> "running";
            case "TaskInputRequired" -> "input_required";
            case "TaskAuthRequired" -> "auth_required";
            case "TaskCompleted" -> "completed";
            case "TaskFailed" -> "failed";
            case "TaskCanceled" -> "canceled";
            case "TaskTimedOut" -> "timeout";
            case "TaskRejected" -> "rejected";
            default -> throw new IllegalArgumentException("Not a task event: " + eventType);
        };
    }

    /**
     * Every processor has handled every event before the service stops, and no webhook delivery is still under way: reads
     * answer from the event store while a view lags, so everything can look ended while a projection is still behind; and
     * a delivery still retrying (one of a task whose 202 a kill cut off, which the suite never learnt of, is not waited for
     * above) appends its attempts while the service stops, after its processors did. A live table compared with its
     * rebuild would then differ for want of time, not for a fault.
     */
    private void caughtUp(Map<String, Object> report, List<String> failures) throws Exception {
        Instant giveUp = Instant.now().plus(SETTLE);
        Map<String, Double> lags = lags();
        List<String> underWay = deliveriesUnderWay();
        while ((lags.values().stream().anyMatch(lag -> lag > 0) || !underWay.isEmpty()) && Instant.now().isBefore(giveUp)) {
            Thread.sleep(200);
            lags = lags();
            underWay = lags.values().stream().anyMatch(lag -> lag > 0) ? underWay : deliveriesUnderWay();
        }
        report.put("deliveries_under_way_at_stop", underWay.size());
        if (!underWay.isEmpty()) {
            failures.add(underWay.size() + " webhook deliveries still under way after " + SETTLE.toSeconds() + " s of waiting: " + underWay);
        }
        Map<String, Double> behind = new java.util.TreeMap<>();
        lags.forEach((processor, lag) -> {
            if (lag > 0) {
                behind.put(processor, lag);
            }
        });
        report.put("processors_behind_at_stop", behind);
        if (!behind.isEmpty()) {
            failures.add(behind.size() + " processor(s) still behind the event store after " + SETTLE.toSeconds() + " s of waiting: " + behind);
        }
    }

    /** The deliveries whose last event in the audit trail is not an end (succeeded, dead-lettered, stopped). */
    private List<String> deliveriesUnderWay() throws Exception {
        Map<String, String> last = new LinkedHashMap<>();
        long since = -1;
        for (;;) {
            JsonNode page = call("GET", "/api/v1/audit/events?resource_type=delivery&limit=1000" + (since < 0 ? "" : "&since=" + since), null, 200)
                    .get("data");
            page.get("events").forEach(event -> last.put(event.get("resource_id").asString(), event.get("type").asString()));
            if (page.get("events").isEmpty() || page.get("next_since").isNull()) {
                break;
            }
            since = page.get("next_since").asLong();
        }
        return last.entrySet().stream()
                .filter(delivery -> !Set.of("DeliverySucceeded", "DeliveryDeadLettered", "DeliveryStopped").contains(delivery.getValue()))
                .map(Map.Entry::getKey).toList();
    }

    /** Each processor's lag behind the store's head, as the service's metrics say ({@code agent_platform_processor_lag_events}). */
    private Map<String, Double> lags() throws IOException, InterruptedException {
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + service.port() + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
        return Platform.processorLags(metrics.body());
    }

    /** With the service stopped: every read model equals its rebuild, and the audit chain verifies. */
    private void offline(Path dataDir, Path scratch, Map<String, Object> report, List<String> failures) throws Exception {
        CommandResult rebuild = cli(scratch.resolve("rebuild.log"), "projections", "rebuild", "all", "--agent-platform.data-dir=" + dataDir);
        boolean equal = rebuild.exit() == 0 && !rebuild.output().contains("DIFFERS");
        CommandResult audit = cli(scratch.resolve("audit.log"), "audit", "verify", "--agent-platform.data-dir=" + dataDir);
        boolean verified = audit.exit() == 0 && audit.output().contains("ok:");
        report.put("rebuild_equal", equal);
        report.put("audit_verified", verified);
        if (!equal) {
            failures.add("a read model differs from its rebuild (see " + scratch.resolve("rebuild.log") + ")");
        }
        if (!verified) {
            failures.add("the audit chain does not verify (see " + scratch.resolve("audit.log") + ")");
        }
        System.out.printf("crash: rebuild %s; audit %s%n", equal ? "equal to the live tables" : "DIFFERS",
                verified ? audit.output().lines().filter(line -> line.startsWith("ok:")).findFirst().orElse("ok") : "FAILED");
    }

    private record CommandResult(int exit, String output) {
    }

    private CommandResult cli(Path log, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(20, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", arguments) + " did not finish; see " + log);
        }
        return new CommandResult(process.exitValue(), Files.readString(log));
    }

    /** A 404: the id is not known. */
    private static final class NotFound extends Exception {
        NotFound(String what) {
            super(what, null, false, false);
        }
    }

    private JsonNode call(String method, String path, Object body, int expected) throws IOException, InterruptedException, NotFound {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + service.port() + path))
                .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + key);
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(Platform.json(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404 && "GET".equals(method)) {
            throw new NotFound(path + ": " + response.body());
        }
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return Platform.JSON.readTree(response.body());
    }

    /** One callback as it arrived: which task and status, in which life of the service, and what it was answered. */
    private record Receipt(String task, String status, int life, int answered) {
    }

    /** The webhooks' receiver: {@code /steady} answers 200, {@code /flaky} answers 500 to about one callback in five. */
    private static final class Receiver implements AutoCloseable {

        private final HttpServer server;
        private final Map<String, List<Receipt>> byTask = new ConcurrentHashMap<>();
        private final AtomicLong received = new AtomicLong();
        private final AtomicInteger lives = new AtomicInteger();
        private final Random flakiness;

        Receiver(long seed) throws IOException {
            flakiness = new Random(seed ^ 0x5DEECE66DL);
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/", exchange -> {
                JsonNode payload = Platform.JSON.readTree(exchange.getRequestBody().readAllBytes());
                int status;
                synchronized (flakiness) {
                    status = exchange.getRequestURI().getPath().equals("/flaky") && flakiness.nextInt(5) == 0 ? 500 : 200;
                }
                String task = payload.get("task_id").asString();
                byTask.computeIfAbsent(task, any -> Collections.synchronizedList(new ArrayList<>()))
                        .add(new Receipt(task, payload.get("status").asString(), lives.get(), status));
                received.incrementAndGet();
                byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, answer.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(answer);
                }
            });
            server.start();
        }

        String url(String path) {
            return "http://127.0.0.1:" + server.getAddress().getPort() + path;
        }

        List<Receipt> of(String task) {
            List<Receipt> receipts = byTask.getOrDefault(task, List.of());
            synchronized (receipts) {
                return List.copyOf(receipts);
            }
        }

        long count() {
            return received.get();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
