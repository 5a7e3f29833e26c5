package org.agentplatform.api.agent;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Skills, templates and models through the agent's runtime, with every answer the contract names. */
class SkillHttpTest extends ApiTest {

    private static final Map<String, Object> MANIFEST = Map.of("path", "SKILL.md", "content", "# Review\nReview diffs.");

    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "skilled");
    }

    @Test
    void aSkillIsInstalledDisabledAndUninstalled() {
        JsonNode installed = body(install(Map.of("name", "review", "version", "2",
                "files", List.of(MANIFEST, Map.of("path", "scripts/run.sh", "content_b64", "ZWNobyBoaQo=")))), 200);
        assertThat(installed.get("ok").asBoolean()).isTrue();
        assertThat(installed.get("name").asString()).isEqualTo("review");
        awaitSkills("[{\"name\":\"review\",\"version\":\"2\",\"enabled\":true}]");

        JsonNode disabled = body(owner.patch("/api/v1/agents/{a}/skills/review", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("enabled", false)).exchange(), 200);
        assertThat(disabled.get("enabled").asBoolean()).isFalse();
        assertThat(disabled.get("name").asString()).isEqualTo("review");
        awaitSkills("[{\"name\":\"review\",\"version\":\"2\",\"enabled\":false}]");

        assertThat(body(owner.delete("/api/v1/agents/{a}/skills/review", agent).exchange(), 200).get("ok").asBoolean()).isTrue();
        awaitSkills("[]");
        assertError(owner.delete("/api/v1/agents/{a}/skills/review", agent).exchange(), 404, "not_found", "");
        assertError(owner.patch("/api/v1/agents/{a}/skills/review", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("enabled", true)).exchange(), 404, "not_found", "");
    }

    @Test
    void anInstallRequestIsCheckedAsTheContractSays() {
        assertError(install(Map.of("name", "x", "files", List.of(MANIFEST), "colour", "red")), 400, "invalid_body", "");
        assertError(install(Map.of("name", "x", "files", List.of(MANIFEST), "file_id", "f1")), 400, "invalid_body", "");
        assertError(install(Map.of("name", "x")), 400, "missing_param", "files");
        assertError(install(Map.of("files", List.of(MANIFEST))), 400, "missing_param", "name");
        assertError(install(Map.of("name", "n".repeat(129), "files", List.of(MANIFEST))), 400, "invalid_param", "name");
        assertError(install(Map.of("name", "x", "files", List.of(Map.of("path", "README.md", "content", "")))), 400, "invalid_param", "files");
        assertError(install(Map.of("name", "x", "files", List.of(MANIFEST, Map.of("path", "../escape", "content", "")))), 400,
                "invalid_param", "files[1].path");
        assertError(install(Map.of("name", "x", "files", List.of(MANIFEST, Map.of("content", "no path")))), 400,
                "missing_param", "files[1].path");
        assertError(install(Map.of("name", "x", "files", List.of(Map.of("path", "SKILL.md", "content", "a", "content_b64", "YQ==")))),
                400, "invalid_param", "files[0].content_b64");
        assertError(install(Map.of("name", "x", "files", List.of(Map.of("path", "SKILL.md", "content_b64", "%%%")))), 400,
                "invalid_param", "files[0].content_b64");
        assertError(install(Map.of("name", "x", "file_id", "f1", "size_bytes", 10)), 400, "missing_param", "sha256");
        assertError(install(Map.of("name", "x", "file_id", "f1", "sha256", "ab", "size_bytes", 10)), 400, "invalid_param", "sha256");
        assertError(install(Map.of("name", "x", "file_id", "f1", "sha256", "ab".repeat(32), "size_bytes", 10)), 400, "invalid_param",
                "file_id");
    }

    @Test
    void aPartialWriteIsAHarnessErrorAndTheWrittenFilesStay() {
        owner.faults(instance, List.of(Map.of("method", "skills/install", "partial_write", true, "times", 1)));
        JsonNode harness = body(install(Map.of("name", "half", "files", List.of(MANIFEST, Map.of("path", "b.txt", "content", "b")))), 502);
        assertThat(harness.has("success")).isFalse();
        assertThat(harness.at("/error/code").asString()).isEqualTo("harness_error");
        assertThat(harness.at("/error/message").asString()).isNotBlank();
        JsonNode operations = harness.at("/error/operations");
        assertThat(operations).hasSize(2);
        assertThat(operations.get(0).get("name").asString()).isEqualTo("SKILL.md");
        assertThat(operations.get(0).get("status").asString()).isEqualTo("succeeded");
        assertThat(operations.get(1).get("status").asString()).isEqualTo("failed");
        assertThat(operations.get(1).get("code").asString()).isEqualTo("WRITE_FAILED");
        assertThat(operations.get(1).get("kind").asString()).isNotBlank();
        String listing = owner.operationOf(instance, "skills/list", Map.of("agentId", agent));
        JsonNode skills = owner.awaitOperation(instance, listing, "succeeded").at("/result/skills");
        assertThat(skills.toString()).contains("SKILL.md").doesNotContain("b.txt");
    }

    @Test
    void aWriteStillApplyingIsA504WithRetryAfterAndTheRetryDoesNotWriteTwice() {
        // slower than the sync wait (4 s in the tests), which starts before the call is even dispatched: always a 504 first
        owner.faults(instance, List.of(Map.of("method", "skills/install", "latency_ms", 5_000, "times", 1)));
        Map<String, Object> request = Map.of("name", "slow", "files", List.of(MANIFEST));
        WebTestClient.ResponseSpec pending = install(request);
        pending.expectHeader().value(HttpHeaders.RETRY_AFTER, seconds -> assertThat(Integer.parseInt(seconds)).isPositive());
        JsonNode error = assertError(pending, 504, "service_timeout", "");
        String operation = error.at("/metadata/operation_id").asString();
        assertThat(operation).isNotBlank();
        // retried as the contract says (after Retry-After) until the write is applied: 504 while it applies, then 200
        String retried = PlatformClient.await(() -> install(request).expectBody(String.class).returnResult(),
                        result -> result.getStatus().value() == 200, "the install applied")
                .getResponseBody();
        assertThat(JSON.readTree(retried).get("name").asString()).isEqualTo("slow");
        Integer installs = jdbc().queryForObject("SELECT count(*) FROM operation_view WHERE method = 'skills/install'"
                + " AND resource_key = ?", Integer.class, "agent:" + agent + ":skill:slow");
        assertThat(installs).as("the retry waited for the first install instead of writing again").isEqualTo(1);
    }

    @Test
    void aTemplateIsApplied() {
        assertThat(body(owner.post("/api/v1/agents/{a}/template", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("template_id", "coder")).exchange(), 200).get("ok").asBoolean()).isTrue();
        PlatformClient.await(() -> body(owner.get("/api/v1/agents/{a}", agent).exchange(), 200).at("/data/template_id").asString(),
                "coder"::equals, "template applied");
        assertError(owner.post("/api/v1/agents/{a}/template", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("template_id", "astronaut")).exchange(), 404, "not_found", "");
        assertError(owner.post("/api/v1/agents/{a}/template", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of()).exchange(), 400, "missing_param", "template_id");
    }

    @Test
    void modelsAreListedForTheOwnerAndForAPublicAgentsReaders() {
        JsonNode models = body(owner.get("/api/v1/agents/{a}/models", agent).exchange(), 200);
        assertThat(models.get("default").asString()).isEqualTo("echo");
        assertThat(models.get("fallback").asString()).isEqualTo("echo");
        JsonNode echo = models.get("models").get(0);
        assertThat(echo.get("id").asString()).isEqualTo("echo");
        assertThat(echo.get("available").asBoolean()).isTrue();
        assertThat(echo.get("default").asBoolean()).isTrue();
        assertThat(echo.get("backend").asString()).isEqualTo("echo");
        assertThat(echo.get("label").asString()).isNotBlank();
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/agents/{a}/models", agent).exchange(), 403, "forbidden", "");
        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 200);
        assertThat(body(stranger.get("/api/v1/agents/{a}/models", agent).exchange(), 200).get("default").asString()).isEqualTo("echo");
        assertError(stranger.post("/api/v1/agents/{a}/skills", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "x", "files", List.of(MANIFEST))).exchange(), 403, "forbidden", "");
    }

    @Test
    void aStoppedInstancesAgentIsOffline() {
        body(owner.post("/api/v1/instances/{id}/stop", instance).exchange(), 200);
        assertError(install(Map.of("name", "x", "files", List.of(MANIFEST))), 503, "agent_offline", "");
        assertError(owner.get("/api/v1/agents/{a}/models", agent).exchange(), 503, "agent_offline", "");
    }

    private WebTestClient.ResponseSpec install(Map<String, Object> request) {
        return owner.post("/api/v1/agents/{a}/skills", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(request).exchange();
    }

    private void awaitSkills(String expected) {
        PlatformClient.await(() -> body(owner.get("/api/v1/agents/{a}", agent).exchange(), 200).at("/data/skills").toString(),
                expected::equals, "skills " + expected);
    }
}
