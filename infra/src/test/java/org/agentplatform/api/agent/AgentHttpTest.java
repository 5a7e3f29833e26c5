package org.agentplatform.api.agent;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/** Platform agents: visibility, access across owners, and the owner's PATCH. */
class AgentHttpTest extends ApiTest {

    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        agent = owner.createAgent(owner.runningInstance("linux"), "visible");
    }

    @Test
    void theOwnerSeesItsAgent() {
        JsonNode found = body(owner.get("/api/v1/agents/{a}", agent).exchange(), 200).get("data");
        assertThat(found.get("name").asString()).isEqualTo("visible");
        assertThat(found.get("visibility").asString()).isEqualTo("private");
        assertThat(found.get("mcp_enabled").asBoolean()).isFalse();
        assertThat(found.get("owned").asBoolean()).isTrue();
        assertThat(found.get("model").asString()).isEqualTo("echo");
    }

    @Test
    void anotherOwnersPrivateAgentIsForbiddenAndAnUnknownOneNotFound() {
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/agents/{a}", agent).exchange(), 403, "forbidden", "");
        assertThat(body(stranger.get("/api/v1/agents").exchange(), 200).toString()).doesNotContain(agent);
        assertError(owner.get("/api/v1/agents/{a}", UUID.randomUUID()).exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/not-an-agent-id").exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/{a}", "a".repeat(129)).exchange(), 400, "invalid_param", "agentId");
    }

    @Test
    void aPublicAgentCanBeReadButNotChangedByOthers() {
        JsonNode patched = body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public", "mcp_enabled", true)).exchange(), 200).get("data");
        assertThat(patched.get("visibility").asString()).isEqualTo("public");
        assertThat(patched.get("mcp_enabled").asBoolean()).isTrue();
        PlatformClient stranger = stranger();
        JsonNode seen = body(stranger.get("/api/v1/agents/{a}", agent).exchange(), 200).get("data");
        assertThat(seen.get("owned").asBoolean()).isFalse();
        assertThat(body(stranger.get("/api/v1/agents").exchange(), 200).toString()).contains(agent);
        assertError(stranger.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "private")).exchange(), 403, "forbidden", "");
    }

    @Test
    void patchTakesOnlyVisibilityAndMcpEnabled() {
        assertError(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "renamed")).exchange(), 400, "invalid_body", "");
        assertError(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "secret")).exchange(), 400, "invalid_param", "visibility");
        assertError(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("mcp_enabled", "yes")).exchange(), 400, "invalid_body", "");
        assertError(owner.patch("/api/v1/agents/{a}", UUID.randomUUID()).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 404, "agent_not_found", "");
    }

    @Test
    void aDeletedAgentIsGone() {
        JsonNode found = body(owner.get("/api/v1/agents/{a}", agent).exchange(), 200).get("data");
        String instance = found.get("instance_id").asString();
        String operation = owner.operationOf(instance, "agent/delete", Map.of("agentId", agent));
        owner.awaitOperation(instance, operation, "succeeded");
        PlatformClient.await(() -> owner.get("/api/v1/agents/{a}", agent).exchange().returnResult(String.class).getStatus().value(),
                status -> status == 404, "agent gone");
        assertError(owner.get("/api/v1/agents/{a}", agent).exchange(), 404, "agent_not_found", "");
    }
}
