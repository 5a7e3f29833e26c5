package org.agentplatform.infra.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.FluxExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** One caller's view of the platform over real HTTP: deploy, call runtime methods, follow operations. */
public final class PlatformClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final WebTestClient http;
    private final String token;

    public PlatformClient(WebTestClient http, String token) {
        this.http = http;
        this.token = token;
    }

    public WebTestClient.RequestHeadersSpec<?> get(String uri, Object... variables) {
        return http.get().uri(uri, variables).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    }

    public WebTestClient.RequestBodySpec post(String uri, Object... variables) {
        return http.post().uri(uri, variables).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    }

    public WebTestClient.RequestBodySpec patch(String uri, Object... variables) {
        return http.patch().uri(uri, variables).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    }

    public WebTestClient.RequestBodySpec put(String uri, Object... variables) {
        return http.put().uri(uri, variables).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    }

    public WebTestClient.RequestHeadersSpec<?> delete(String uri, Object... variables) {
        return http.delete().uri(uri, variables).header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
    }

    public static JsonNode body(WebTestClient.ResponseSpec response, int status) {
        return JSON.readTree(response.expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBody());
    }

    /**
     * Deploys a local instance of {@code kind} and waits until it runs; answers its id. A 504 (the instance's view more
     * than the route's wait behind, on a busy machine) is taken as the contract tells a client: the instance was
     * accepted, its id is in {@code metadata.instance_id}, and reading it again after {@code Retry-After} answers it.
     */
    public String runningInstance(String kind) {
        EntityExchangeResult<byte[]> deployed = post("/api/v1/instances").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("provider", "local", "region", "local", "kind", kind)).exchange().expectBody().returnResult();
        JsonNode answer = JSON.readTree(deployed.getResponseBodyContent());
        int status = deployed.getStatus().value();
        assertThat(status).as("deploy answered %s", answer).isIn(201, 504);
        String id = status == 201 ? answer.at("/data/id").asString() : answer.at("/error/metadata/instance_id").asString();
        awaitInstance(id, "running");
        return id;
    }

    /** Reads the instance until its status is {@code status}; a 504 (its view behind) is read again, as its Retry-After says. */
    public JsonNode awaitInstance(String instanceId, String status) {
        return await(() -> {
            EntityExchangeResult<byte[]> read = get("/api/v1/instances/{id}", instanceId).exchange().expectBody().returnResult();
            if (read.getStatus().value() == 504) {
                return null;
            }
            assertThat(read.getStatus().value()).as("instance %s read", instanceId).isEqualTo(200);
            return JSON.readTree(read.getResponseBodyContent()).get("data");
        }, instance -> instance != null && status.equals(instance.get("status").asString()), "instance " + instanceId + " " + status);
    }

    /** A JSON-RPC call of {@code method}; answers the whole JSON-RPC response (HTTP 202). */
    public JsonNode call(String instanceId, String method, Map<String, ?> params) {
        return call(instanceId, method, params, "");
    }

    public JsonNode call(String instanceId, String method, Map<String, ?> params, String query) {
        return body(post("/api/v1/instances/{id}/methods" + query, instanceId).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", "call-1", "method", method, "params", params)).exchange(), 202);
    }

    /** Calls {@code method} and answers its operation id. */
    public String operationOf(String instanceId, String method, Map<String, ?> params) {
        return call(instanceId, method, params).at("/result/id").asString();
    }

    public JsonNode operation(String instanceId, String operationId) {
        return body(get("/api/v1/instances/{i}/operations/{o}", instanceId, operationId).exchange(), 200);
    }

    public JsonNode awaitOperation(String instanceId, String operationId, String status) {
        return await(() -> operation(instanceId, operationId), operation -> status.equals(operation.get("status").asString()),
                "operation " + operationId + " " + status);
    }

    /** Runs {@code agent/create} to success and answers the platform agent id, once the agent is readable. */
    public String createAgent(String instanceId, String name) {
        String operation = operationOf(instanceId, "agent/create", Map.of("name", name));
        String agent = awaitOperation(instanceId, operation, "succeeded").at("/projection/platformAgentId").asString();
        await(() -> get("/api/v1/agents/{a}", agent).exchange().returnResult(String.class).getStatus().value(),
                status -> status == 200, "agent " + agent + " readable");
        return agent;
    }

    public void faults(String instanceId, List<Map<String, Object>> rules) {
        body(put("/api/v1/instances/{id}/faults", instanceId).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("rules", rules)).exchange(), 200);
    }

    /** The operation's event stream from {@code lastEventId} (null: from the start), at most {@code count} events. */
    public List<ServerSentEvent<String>> events(String instanceId, String operationId, String lastEventId, int count) {
        return sse(get("/api/v1/instances/{i}/operations/{o}/events", instanceId, operationId), lastEventId, count);
    }

    /** Creates a task on the agent (202 at once) and answers its id. */
    public String task(String agentId, String message) {
        return task(agentId, Map.of("message", message)).at("/data/task_id").asString();
    }

    public JsonNode task(String agentId, Map<String, ?> body) {
        return body(post("/api/v1/agents/{a}/tasks", agentId).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange(), 202);
    }

    public JsonNode taskView(String agentId, String taskId) {
        return body(get("/api/v1/agents/{a}/tasks/{t}", agentId, taskId).exchange(), 200).get("data");
    }

    public JsonNode awaitTask(String agentId, String taskId, String status) {
        return await(() -> taskView(agentId, taskId), task -> status.equals(task.get("status").asString()),
                "task " + taskId + " " + status);
    }

    /** The task's SSE frames after {@code lastEventId} (null: from the start), at most {@code count}, or all until the stream ends. */
    public List<ServerSentEvent<String>> taskEvents(String agentId, String taskId, String lastEventId, int count) {
        return sse(get("/api/v1/agents/{a}/tasks/{t}/events", agentId, taskId), lastEventId, count);
    }

    /** The inbox's SSE frames after {@code lastEventId} ({@code since}: a query of the inbox's), the first {@code count}. */
    public List<ServerSentEvent<String>> inboxEvents(String query, String lastEventId, int count) {
        return sse(get("/api/v1/tasks/events" + query), lastEventId, count);
    }

    /** Opens a conversation with the agent (201) and answers its id. */
    public String conversation(String agentId) {
        return body(post("/api/v1/agents/{a}/conversations", agentId).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of())
                .exchange(), 201).at("/data/conversation_id").asString();
    }

    /** Sends a message to the conversation (202) and answers the response's data. */
    public JsonNode say(String agentId, String conversationId, String message) {
        return body(post("/api/v1/agents/{a}/conversations/{c}/messages", agentId, conversationId).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", message)).exchange(), 202).get("data");
    }

    public JsonNode conversationView(String agentId, String conversationId) {
        return body(get("/api/v1/agents/{a}/conversations/{c}", agentId, conversationId).exchange(), 200).get("data");
    }

    /** The conversation's log (with or without chunks), as its {@code data}. */
    public JsonNode conversationLog(String agentId, String conversationId, boolean deltas) {
        return body(get("/api/v1/agents/{a}/conversations/{c}/messages?include_deltas={d}&limit=1000", agentId, conversationId, deltas)
                .exchange(), 200).get("data");
    }

    /** Waits until turn {@code turn} of the conversation stands at {@code status}. */
    public JsonNode awaitTurn(String agentId, String conversationId, int turn, String status) {
        return await(() -> conversationView(agentId, conversationId),
                conversation -> conversation.get("turn").asInt() == turn && status.equals(conversation.get("turn_status").asString()),
                "turn " + turn + " of conversation " + conversationId + " " + status);
    }

    /** The conversation's SSE frames after {@code lastEventId} (null: from the start), until {@code last} holds for one (included). */
    public List<ServerSentEvent<String>> conversationEvents(String agentId, String conversationId, String lastEventId,
            Predicate<ServerSentEvent<String>> last) {
        WebTestClient.RequestHeadersSpec<?> stream = get("/api/v1/agents/{a}/conversations/{c}/events", agentId, conversationId)
                .accept(MediaType.TEXT_EVENT_STREAM);
        if (lastEventId != null) {
            stream = stream.header("Last-Event-ID", lastEventId);
        }
        FluxExchangeResult<ServerSentEvent<String>> result = stream.exchange()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
                });
        if (result.getStatus().value() == 204) {
            return List.of(); // the conversation had closed at the cursor: nothing follows, ever
        }
        assertThat(result.getStatus().value()).as("the stream's status").isEqualTo(200);
        return result.getResponseBody()
                .filter(event -> event.event() != null)
                .takeUntil(last)
                .collectList()
                .block(PATIENCE);
    }

    /** Named events of a stream (comments left out), resumed after {@code lastEventId} when given; at most {@code count}. */
    private static List<ServerSentEvent<String>> sse(WebTestClient.RequestHeadersSpec<?> request, String lastEventId, int count) {
        WebTestClient.RequestHeadersSpec<?> stream = request.accept(MediaType.TEXT_EVENT_STREAM);
        if (lastEventId != null) {
            stream = stream.header("Last-Event-ID", lastEventId);
        }
        FluxExchangeResult<ServerSentEvent<String>> result = stream.exchange()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {
                });
        if (result.getStatus().value() == 204) {
            return List.of(); // the stream had ended at the cursor: nothing follows, ever
        }
        assertThat(result.getStatus().value()).as("the stream's status").isEqualTo(200);
        return result.getResponseBody()
                .filter(event -> event.event() != null)
                .take(count)
                .collectList()
                .block(PATIENCE);
    }

    public static JsonNode data(ServerSentEvent<String> event) {
        return JSON.readTree(event.data());
    }

    /** Reads until {@code done} holds (the platform is asynchronous); fails after 30 s. */
    public static <T> T await(Supplier<T> read, Predicate<T> done, String what) {
        return await(read, done, what, PATIENCE);
    }

    /** Reads until {@code done} holds; fails after {@code patience}. */
    public static <T> T await(Supplier<T> read, Predicate<T> done, String what, Duration patience) {
        Instant deadline = Instant.now().plus(patience);
        T last = read.get();
        while (!done.test(last)) {
            assertThat(Instant.now()).as("waiting for " + what + "; last seen: " + last).isBefore(deadline);
            try {
                // the public API is asynchronous and a client learns of a change by reading: read again shortly, until the
                // patience (a bound on a hang, not a speed) is spent; streams are awaited as streams elsewhere
                Thread.sleep(50);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
            last = read.get();
        }
        return last;
    }
}
