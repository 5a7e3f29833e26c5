package org.agentplatform.api.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** {@code POST /instances/{id}/methods}: JSON-RPC 2.0 in, a queued runtime operation (or a JSON-RPC error) out. */
class MethodCallHttpTest extends ApiTest {

    private PlatformClient platform;
    private String instance;

    @BeforeEach
    void anInstance() {
        platform = platform();
        instance = platform.runningInstance("linux");
    }

    @Test
    void aSupportedCallAnswersTheQueuedOperationAtOnce() {
        JsonNode response = platform.call(instance, "cron/list", Map.of());
        assertThat(response.get("jsonrpc").asString()).isEqualTo("2.0");
        assertThat(response.get("id").asString()).isEqualTo("call-1");
        JsonNode snapshot = response.get("result");
        assertThat(fieldNames(snapshot)).containsExactly("id", "instanceId", "target", "method", "capability", "transport",
                "sequence", "createdAt", "updatedAt", "status", "effectState", "terminal", "cursor", "progress", "cancelRequest",
                "projection", "result", "error");
        assertThat(snapshot.get("instanceId").asString()).isEqualTo(instance);
        assertThat(snapshot.at("/target/scope").asString()).isEqualTo("instance");
        assertThat(snapshot.get("capability").asString()).isEqualTo("cron");
        assertThat(snapshot.get("transport").asString()).isEqualTo("service");
        // answered at once, so usually still queued; a fast runtime may already have moved it on
        assertThat(snapshot.get("sequence").asString()).matches("0|[1-9][0-9]*").isEqualTo(snapshot.get("cursor").asString());
        String status = snapshot.get("status").asString();
        assertThat(snapshot.get("effectState").asString()).isEqualTo(Map.of("queued", "queued", "running", "running",
                "runtime_committed", "committed", "succeeded", "committed").get(status));
        assertThat(snapshot.get("terminal").asBoolean()).isEqualTo(status.equals("succeeded"));
        assertThat(snapshot.at("/projection/state").asString()).isEqualTo("not_applicable");
        assertThat(snapshot.at("/progress/phase").asString()).isEqualTo(status);
        assertThat(snapshot.at("/progress/total").asInt()).isEqualTo(4);
        JsonNode done = platform.awaitOperation(instance, snapshot.get("id").asString(), "succeeded");
        assertThat(done.get("sequence").asString()).matches("0|[1-9][0-9]*").isEqualTo(done.at("/progress/sequence").asString());
        assertThat(done.get("effectState").asString()).isEqualTo("committed");
        assertThat(done.get("terminal").asBoolean()).isTrue();
        assertThat(done.at("/result/entries").isArray()).isTrue();
    }

    @Test
    void theCapabilityFollowsTheMethod() {
        String agent = platform.createAgent(instance, "caps");
        Map<String, String> expected = Map.of(
                "skills/list", "skills", "models/list", "models", "mcp/list", "mcp", "session/clear", "conversation.control",
                "agent/update", "agents.lifecycle");
        expected.forEach((method, capability) -> assertThat(platform.call(instance, method,
                method.equals("models/list") || method.equals("mcp/list") ? Map.of() : Map.of("agentId", agent))
                .at("/result/capability").asString()).as(method).isEqualTo(capability));
    }

    @Test
    void notJsonIsAParseError() {
        JsonNode error = rpc("{\"jsonrpc\": \"2.0\", \"method\": ");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(error.get("id").isNull()).isTrue();
    }

    @Test
    void aMalformedRequestIsAnInvalidRequest() {
        assertThat(rpc("[1, 2]").at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(rpc("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"cron/list\"}").at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(rpc("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": 5}").at("/error/code").asInt()).isEqualTo(-32600);
    }

    @Test
    void anyJsonValueIsAnIdAndComesBackAsItWas() {
        for (String id : List.of("{\"a\": [1, true]}", "true", "[1, \"x\"]", "2.5", "\"call-9\"")) {
            JsonNode answer = PlatformClient.body(methods("").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \"cron/list\", \"params\": {}}").exchange(), 202);
            assertThat(answer.get("id")).as(id).isEqualTo(JSON.readTree(id));
            JsonNode refused = rpc("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \"agent/teleport\", \"params\": {}}");
            assertThat(refused.get("id")).as(id).isEqualTo(JSON.readTree(id));
        }
    }

    @Test
    void anUnknownMethodIsNotSupported() {
        JsonNode error = rpc("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"agent/teleport\", \"params\": {}}");
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32011);
        assertThat(error.at("/error/message").asString()).isEqualTo("METHOD_NOT_SUPPORTED");
        assertThat(error.get("id").asInt()).isEqualTo(7);
        assertThat(error.at("/error/data/method").asString()).isEqualTo("agent/teleport");
    }

    @Test
    void paramsThatDoNotFitTheMethodAreInvalidParams() {
        assertThat(rpc("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"cron/list\", \"params\": [1]}").at("/error/code").asInt())
                .isEqualTo(-32602);
        JsonNode missing = rpc("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"skills/list\", \"params\": {}}");
        assertThat(missing.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(missing.at("/error/data/param").asString()).isEqualTo("agentId");
        JsonNode unknown = rpc("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"cron/list\", \"params\": {\"colour\": \"red\"}}");
        assertThat(unknown.at("/error/data/param").asString()).isEqualTo("colour");
        JsonNode mistyped = rpc("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"cron/runs\", \"params\": {\"cronId\": \"x\", \"limit\": \"5\"}}");
        assertThat(mistyped.at("/error/data/param").asString()).isEqualTo("limit");
    }

    @Test
    void aDeadlineOutOfRangeIsInvalidParam() {
        assertError(methods("?deadline_ms=5").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", 1, "method", "cron/list", "params", Map.of())).exchange(), 400,
                "invalid_param", "deadline_ms");
        assertError(methods("?deadline_ms=soon").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", 1, "method", "cron/list", "params", Map.of())).exchange(), 400,
                "invalid_param", "deadline_ms");
    }

    @Test
    void secretParamsNeverReachTheEventStore() {
        String agent = platform.createAgent(instance, "mcp user");
        String operation = platform.operationOf(instance, "mcp/set", Map.of("name", "github", "url", "https://mcp.example.test",
                "env", Map.of("GITHUB_TOKEN", "ghp_very_secret_value"), "headers", Map.of("Authorization", "Bearer hdr-secret"),
                "agentId", agent));
        JsonNode done = platform.awaitOperation(instance, operation, "succeeded");
        assertThat(done.toString()).doesNotContain("ghp_very_secret_value").doesNotContain("hdr-secret");
        assertThat(done.at("/result/env/GITHUB_TOKEN").asString()).isEqualTo("***");
        Integer leaked = jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE position('ghp_very_secret_value' in"
                + " convert_from(payload, 'UTF8')) > 0 OR position('hdr-secret' in convert_from(payload, 'UTF8')) > 0", Integer.class);
        assertThat(leaked).isZero();
        Integer sealed = jdbc().queryForObject("SELECT count(*) FROM secret WHERE purpose LIKE 'mcp/set%'", Integer.class);
        assertThat(sealed).isGreaterThanOrEqualTo(2);
    }

    private JsonNode rpc(String body) {
        return PlatformClient.body(methods("").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange(), 400);
    }

    private WebTestClient.RequestBodySpec methods(String query) {
        return platform.post("/api/v1/instances/{id}/methods" + query, instance);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
