package org.agentplatform.api.agent;

import static org.agentplatform.infra.support.PlatformClient.body;

import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The requests that give an agent work answer from the agent's placement as last read (its owner, visibility and its
 * instance's status), kept in memory: each change of the agent or its instance is seen by the very next such request,
 * never a stale placement (a stop answered 200 is followed by 503 at once, a start by 202, a visibility change by the
 * stranger's 202 or 403, a deletion by 404).
 */
class AgentPlacementHttpTest extends ApiTest {

    @Test
    void everyChangeOfTheAgentOrItsInstanceIsSeenByTheNextRequestThatGivesItWork() {
        PlatformClient owner = platform();
        PlatformClient stranger = stranger();
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "placed");
        owner.task(agent, "placed once, kept since");
        for (int round = 0; round < 3; round++) {
            body(owner.post("/api/v1/instances/{id}/stop", instance).exchange(), 200);
            assertError(create(owner, agent), 503, "agent_offline", "");
            assertError(owner.post("/api/v1/agents/{a}/invoke", agent).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("message", "anyone?")).exchange(), 503, "agent_service_unavailable", "");
            body(owner.post("/api/v1/instances/{id}/start", instance).exchange(), 200);
            owner.task(agent, "back again " + round);
        }

        assertError(create(stranger, agent), 403, "forbidden", "");
        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 200);
        stranger.task(agent, "now it is public");
        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "private")).exchange(), 200);
        assertError(create(stranger, agent), 403, "forbidden", "");

        String deletion = owner.operationOf(instance, "agent/delete", Map.of("agentId", agent));
        owner.awaitOperation(instance, deletion, "succeeded");
        PlatformClient.await(() -> owner.get("/api/v1/agents/{a}", agent).exchange().returnResult(String.class).getStatus().value(),
                status -> status == 404, "the agent gone from the read model");
        assertError(create(owner, agent), 404, "agent_not_found", "");
    }

    private static WebTestClient.ResponseSpec create(PlatformClient caller, String agent) {
        return caller.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "hello?")).exchange();
    }
}
