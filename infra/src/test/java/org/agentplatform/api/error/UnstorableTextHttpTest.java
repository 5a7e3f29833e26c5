package org.agentplatform.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Text PostgreSQL cannot hold (U+0000, an unpaired surrogate) is refused wherever a string enters, with 400
 * {@code invalid_param} naming the field, before it becomes an event; and the owner's agent goes on working.
 */
class UnstorableTextHttpTest extends ApiTest {

    private static final String NUL = "a\u0000b";

    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "strict-" + UUID.randomUUID());
    }

    @Test
    void everyStringFieldFamilyRefusesNul() {
        assertRefused(owner.post("/api/v1/agents/{a}/tasks", agent), Map.of("message", NUL), "message");
        assertRefused(owner.post("/api/v1/agents/{a}/tasks", agent),
                Map.of("message", "hi", "webhooks", List.of(Map.of("url", "http://127.0.0.1:9/" + NUL))), "webhooks[0].url");
        assertRefused(owner.post("/api/v1/agents/{a}/invoke", agent), Map.of("message", NUL), "message");
        assertRefused(owner.post("/api/v1/agents/{a}/skills", agent),
                Map.of("name", NUL, "files", List.of(Map.of("path", "SKILL.md", "content", "# x"))), "name");
        assertRefused(owner.post("/api/v1/agents/{a}/skills", agent),
                Map.of("name", "ok", "files", List.of(Map.of("path", "SKILL.md", "content", NUL))), "files[0].content");
        assertRefused(owner.post("/api/v1/agents/{a}/template", agent), Map.of("template_id", "\u0000"), "template_id");
        assertRefused(owner.post("/api/v1/instances"), Map.of("provider", "local", "region", "local", "kind", "linux", "name", NUL),
                "name");
        assertRefused(owner.post("/api/v1/api-keys"), Map.of("name", NUL), "name");
        assertRefused(http.post().uri("/api/v1/auth/login"), Map.of("email", NUL + "@example.com", "password", "secret"), "email");
        assertRefused(owner.post("/api/v1/instances/{i}/methods", instance),
                Map.of("jsonrpc", "2.0", "id", 1, "method", "agent/create", "params", Map.of("name", NUL)), "params.name");
        assertRefused(owner.post("/api/v1/instances/{i}/methods", instance),
                Map.of("jsonrpc", "2.0", "id", 1, "method", "agent/create", "params", Map.of("name", "x", "tags", List.of("x", NUL))),
                "params.tags[1]");
        assertThat(storedNuls()).as("events holding U+0000").isZero();
    }

    @Test
    void anUnpairedSurrogateIsRefusedAndAPairIsKept() {
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"message\": \"lone \\ud800 half\"}").exchange(), 400, "invalid_param", "message");
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"message\": \"reversed \\udc00\\ud800\"}").exchange(), 400, "invalid_param", "message");
        String task = owner.task(agent, "a pair \uD83D\uDE00 is fine");
        assertThat(owner.awaitTask(agent, task, "completed").get("status").asString()).isEqualTo("completed");
    }

    @Test
    void pathAndQueryParametersRefuseNul() {
        assertError(owner.get("/api/v1/agents/{a}", NUL).exchange(), 400, "invalid_param", "agentId");
        assertError(owner.delete("/api/v1/agents/{a}/skills/{n}", agent, NUL).exchange(), 400, "invalid_param", "name");
        assertError(owner.get("/api/v1/tasks?since={s}", NUL).exchange(), 400, "invalid_param", "since");
        assertError(owner.get("/api/v1/agents/{a}/tasks?limit=5&{k}=1", agent, NUL).exchange(), 400, "invalid_param",
                "a\uFFFDb");
        // refused before authentication: it is the request that is malformed
        assertError(http.get().uri("/api/v1/agents/{a}", NUL).exchange(), 400, "invalid_param", "agentId");
    }

    @Test
    void theOwnersAgentKeepsWorkingAfterTheRefusals() {
        everyStringFieldFamilyRefusesNul();
        String task = owner.task(agent, "still here");
        assertThat(owner.awaitTask(agent, task, "completed").get("status").asString()).isEqualTo("completed");
        assertThat(storedNuls()).as("events holding U+0000").isZero();
    }

    private void assertRefused(WebTestClient.RequestBodySpec request, Map<String, ?> body, String param) {
        assertError(request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange(), 400, "invalid_param", param);
    }

    private long storedNuls() {
        return jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE position('\\u0000' IN convert_from(payload, 'UTF8')) > 0",
                Long.class);
    }
}
