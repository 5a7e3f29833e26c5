package org.agentplatform.api.instance;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Instances: deploy from the catalog, the lifecycle, and owner isolation. */
class InstanceHttpTest extends ApiTest {

    @Test
    void aDeployedInstanceRunsAtEpochOne() {
        PlatformClient platform = platform();
        JsonNode deployed = body(platform.post("/api/v1/instances").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("provider", "local", "region", "local", "kind", "android", "name", "phone")).exchange(), 201).get("data");
        assertThat(deployed.get("status").asString()).isIn("deploying", "running");
        assertThat(deployed.get("name").asString()).isEqualTo("phone");
        assertThat(deployed.get("kind").asString()).isEqualTo("android");
        JsonNode running = platform.awaitInstance(deployed.get("id").asString(), "running");
        assertThat(running.get("runtime_epoch").asLong()).isEqualTo(1);
        JsonNode listed = body(platform.get("/api/v1/instances").exchange(), 200).at("/data/instances");
        assertThat(listed.toString()).contains(deployed.get("id").asString());
    }

    @Test
    void deployNamesACatalogProviderRegionAndKind() {
        PlatformClient platform = platform();
        assertError(deploy(platform, Map.of("region", "local", "kind", "linux")), 400, "missing_param", "provider");
        assertError(deploy(platform, Map.of("provider", "aws", "region", "local", "kind", "linux")), 400, "invalid_param", "provider");
        assertError(deploy(platform, Map.of("provider", "local", "region", "mars", "kind", "linux")), 400, "invalid_param", "region");
        assertError(deploy(platform, Map.of("provider", "local", "region", "local", "kind", "toaster")), 400, "invalid_param", "kind");
        assertError(deploy(platform, Map.of("provider", "local", "region", "local")), 400, "missing_param", "kind");
        assertError(deploy(platform, Map.of("provider", "local", "region", "local", "kind", "linux", "size", "xl")), 400,
                "invalid_body", "");
    }

    @Test
    void aRepeatedIdempotencyKeyIsAConflict() {
        PlatformClient platform = platform();
        String key = "deploy-" + UUID.randomUUID();
        platform.post("/api/v1/instances").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("provider", "local", "region", "local", "kind", "linux")).exchange().expectStatus().isCreated();
        assertError(platform.post("/api/v1/instances").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("provider", "local", "region", "local", "kind", "linux")).exchange(), 409, "conflict", "");
    }

    @Test
    void stopStartAndRestartFollowTheLifecycle() {
        PlatformClient platform = platform();
        String id = platform.runningInstance("linux");
        JsonNode stopped = body(platform.post("/api/v1/instances/{id}/stop", id).exchange(), 200).get("data");
        assertThat(stopped.get("status").asString()).isEqualTo("stopped");
        assertError(platform.post("/api/v1/instances/{id}/stop", id).exchange(), 409, "conflict", "");
        assertError(platform.post("/api/v1/instances/{id}/restart", id).exchange(), 409, "conflict", "");
        JsonNode started = body(platform.post("/api/v1/instances/{id}/start", id).exchange(), 200).get("data");
        assertThat(started.get("status").asString()).isEqualTo("running");
        assertThat(started.get("runtime_epoch").asLong()).isEqualTo(2);
        body(platform.post("/api/v1/instances/{id}/restart", id).exchange(), 200);
        assertThat(platform.awaitInstance(id, "running").get("runtime_epoch").asLong()).isEqualTo(3);
    }

    @Test
    void aDestroyedInstanceStaysDestroyed() {
        PlatformClient platform = platform();
        String id = platform.runningInstance("mac");
        assertThat(body(platform.delete("/api/v1/instances/{id}", id).exchange(), 200).at("/data/status").asString())
                .isEqualTo("destroyed");
        assertError(platform.post("/api/v1/instances/{id}/start", id).exchange(), 409, "conflict", "");
        assertError(platform.delete("/api/v1/instances/{id}", id).exchange(), 409, "conflict", "");
        assertError(platform.post("/api/v1/instances/{id}/methods", id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", 1, "method", "models/list", "params", Map.of())).exchange(),
                409, "conflict", "");
    }

    @Test
    void anotherOwnersInstanceIsNotFound() {
        String id = platform().runningInstance("linux");
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/instances/{id}", id).exchange(), 404, "not_found", "");
        assertError(stranger.post("/api/v1/instances/{id}/stop", id).exchange(), 404, "not_found", "");
        assertError(stranger.delete("/api/v1/instances/{id}", id).exchange(), 404, "not_found", "");
        assertError(stranger.post("/api/v1/instances/{id}/methods", id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("jsonrpc", "2.0", "id", 1, "method", "models/list", "params", Map.of())).exchange(),
                404, "not_found", "");
        assertThat(body(stranger.get("/api/v1/instances").exchange(), 200).at("/data/instances")).isEmpty();
        assertError(platform().get("/api/v1/instances/{id}", UUID.randomUUID()).exchange(), 404, "not_found", "");
        assertError(platform().get("/api/v1/instances/not-a-uuid").exchange(), 400, "invalid_param", "instanceId");
    }

    @Test
    void theManifestNamesEveryMethodAtTheCurrentEpoch() {
        PlatformClient platform = platform();
        String id = platform.runningInstance("windows");
        JsonNode manifest = body(platform.get("/api/v1/instances/{id}/runtime-capabilities", id).exchange(), 200).get("data");
        assertThat(manifest.get("runtimeEpoch").asString()).isEqualTo("1");
        assertThat(manifest.get("contractRevision").asString()).isEqualTo("2.0.0");
        assertThat(manifest.get("methods")).hasSize(24);
        assertThat(manifest.get("capabilities").toString()).contains("agents.lifecycle", "conversation.control");
        assertThat(manifest.at("/fence/runtimeEpoch").asString()).isEqualTo("1");
    }

    @Test
    void faultRulesAreValidatedAndCanBeCleared() {
        PlatformClient platform = platform();
        String id = platform.runningInstance("linux");
        assertError(platform.put("/api/v1/instances/{id}/faults", id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("rules", List.of(Map.of("method", "no/such")))).exchange(), 400, "invalid_param",
                "rules[0].method");
        assertError(platform.put("/api/v1/instances/{id}/faults", id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("rules", List.of(Map.of("method", "*", "times", 0)))).exchange(), 400, "invalid_param",
                "rules[0].times");
        platform.faults(id, List.of(Map.of("method", "*", "latency_ms", 10)));
        assertThat(body(platform.get("/api/v1/instances/{id}/faults", id).exchange(), 200).at("/data/rules")).hasSize(1);
        assertThat(body(platform.delete("/api/v1/instances/{id}/faults", id).exchange(), 200).at("/data/rules")).isEmpty();
    }

    private static WebTestClient.ResponseSpec deploy(PlatformClient platform,
            Map<String, Object> body) {
        return platform.post("/api/v1/instances").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }
}
