package org.agentplatform.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The API calls the suite sets itself up with, through one connection of its own. */
final class Platform {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpConnection http;

    Platform(HttpConnection http) {
        this.http = http;
    }

    /** A key of this owner with the highest quota, so the quota is never what is measured. */
    String benchKey() {
        return ok(http.post("/api/v1/api-keys", json(Map.of("name", "bench", "rate_limit_per_minute", 100_000))), 201)
                .at("/data/key").asString();
    }

    /**
     * Another owner's key: a user of a new owner made with the service's own CLI beside it ({@code users create
     * --new-owner}), logged in, and a key it creates with the bench's quota.
     */
    static String secondOwnerKey(String host, Service service, Path jar, String name) throws Exception {
        String email = name + "@bench.test";
        String password = "bench-" + UUID.randomUUID();
        Process create = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                "users", "create", "--email", email, "--new-owner", name, "--agent-platform.data-dir=" + service.dataDir())
                .redirectErrorStream(true).start();
        try (var stdin = create.getOutputStream()) {
            stdin.write((password + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(create.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (create.waitFor() != 0) {
            throw new IllegalStateException("users create failed: " + output);
        }
        try (HttpConnection anonymous = new HttpConnection(host, service.port(), null)) {
            String token = ok(anonymous.post("/api/v1/auth/login", json(Map.of("email", email, "password", password))), 200)
                    .at("/data/access_token").asString();
            try (HttpConnection user = new HttpConnection(host, service.port(), token)) {
                return new Platform(user).benchKey();
            }
        }
    }

    /** A running instance and an echo agent on it, for the owner of {@code key}. */
    static Target target(String host, Service service, String key) throws Exception {
        try (HttpConnection http = new HttpConnection(host, service.port(), key)) {
            Platform platform = new Platform(http);
            String instance = platform.runningInstance();
            return new Target(key, instance, platform.echoAgent(instance));
        }
    }

    /**
     * Deploys a local instance and waits until it runs. A 504 (its view more than the route's wait behind, as on a
     * service just started on a busy machine) is taken as the contract says: accepted, its id in {@code metadata.instance_id}.
     */
    String runningInstance() throws InterruptedException {
        HttpConnection.Response deployed = http.post("/api/v1/instances", json(Map.of("provider", "local", "region", "local", "kind", "linux")));
        String instance = deployed.status() == 504
                ? JSON.readTree(deployed.body()).at("/error/metadata/instance_id").asString()
                : ok(deployed, 201).at("/data/id").asString();
        if (instance.isEmpty()) {
            throw new IllegalStateException("a deploy answered 504 without its instance's id: " + deployed.body());
        }
        await(() -> "running".equals(ok(http.get("/api/v1/instances/" + instance), 200).at("/data/status").asString()), "instance running");
        return instance;
    }

    String echoAgent(String instance) throws InterruptedException {
        String call = json(Map.of("jsonrpc", "2.0", "id", 1, "method", "agent/create", "params", Map.of("name", "bench")));
        String operation = ok(http.post("/api/v1/instances/" + instance + "/methods", call), 202).at("/result/id").asString();
        String[] agent = new String[1];
        await(() -> {
            JsonNode snapshot = ok(http.get("/api/v1/instances/" + instance + "/operations/" + operation), 200);
            agent[0] = snapshot.at("/projection/platformAgentId").asString();
            return "succeeded".equals(snapshot.get("status").asString());
        }, "agent/create succeeded");
        await(() -> http.get("/api/v1/agents/" + agent[0]).status() == 200, "agent readable");
        return agent[0];
    }

    /** What the bench loads: its key (of the first owner, highest quota), a running local instance, an echo agent on it. */
    record Target(String key, String instance, String agent) {
    }

    /** Sets a freshly started service up for the bench, through the first owner's key. */
    static Target setUp(String host, Service service) throws Exception {
        String key;
        try (HttpConnection first = new HttpConnection(host, service.port(), service.firstKey())) {
            key = new Platform(first).benchKey();
        }
        try (HttpConnection http = new HttpConnection(host, service.port(), key)) {
            Platform platform = new Platform(http);
            String instance = platform.runningInstance();
            return new Target(key, instance, platform.echoAgent(instance));
        }
    }

    /** A task's body: {@code message}, which the echo agent answers with two deltas. */
    static String echoTask(String message) {
        return json(Map.of("message", message + "\n/echo deltas=2"));
    }

    String prometheus() {
        return http.get("/actuator/prometheus").body();
    }

    /** A Prometheus exposition's samples: each series (its name and labels, as written) and its value, comments left out. */
    static Map<String, String> series(String exposition) {
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (String line : exposition.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                int space = line.lastIndexOf(' ');
                values.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return values;
    }

    /** Each processor's lag behind the store's head in an exposition ({@code agent_platform_processor_lag_events}), by processor. */
    static Map<String, Double> processorLags(String exposition) {
        Map<String, Double> lags = new java.util.TreeMap<>();
        java.util.regex.Pattern lagOf = java.util.regex.Pattern.compile("agent_platform_processor_lag_events\\{.*processor=\"([^\"]+)\".*}");
        series(exposition).forEach((series, value) -> {
            java.util.regex.Matcher processor = lagOf.matcher(series);
            if (processor.matches()) {
                double lag = Double.parseDouble(value);
                lags.put(processor.group(1), Double.isNaN(lag) ? 0 : lag);
            }
        });
        if (lags.isEmpty()) {
            throw new IllegalStateException("no agent_platform_processor_lag_events in /actuator/prometheus");
        }
        return lags;
    }

    static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    static JsonNode ok(HttpConnection.Response response, int status) {
        if (response.status() != status) {
            throw new IllegalStateException("expected " + status + ", got " + response.status() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    static void await(Condition condition, String what) throws InterruptedException {
        Instant giveUp = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(giveUp)) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (InterruptedException interrupted) {
                throw interrupted;
            } catch (Exception notYet) {
                // try again
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("gave up waiting for " + what);
    }
}
