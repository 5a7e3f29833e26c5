package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.JsonNode;

/**
 * The runtime walk-through of the README across a restart of the service: instances, operations, their
 * event streams, agents and skills are all still there, and an operation left waiting on its runtime
 * when the service stopped still gets its outcome (its deadline is persistent).
 */
class RuntimeRestartTest {

    @TempDir
    Path dataDir;

    @Test
    void everyStepIsReadableAgainAfterARestart() {
        String instance;
        String create;
        String agent;
        String inFlight;
        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            instance = platform.runningInstance("linux");
            create = platform.operationOf(instance, "agent/create", Map.of("name", "durable"));
            agent = platform.awaitOperation(instance, create, "succeeded").at("/projection/platformAgentId").asString();
            PlatformClient.await(() -> platform.get("/api/v1/agents/{a}", agent).exchange().returnResult(String.class)
                    .getStatus().value(), status -> status == 200, "agent readable");
            body(platform.post("/api/v1/agents/{a}/skills", agent).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "review", "files", List.of(Map.of("path", "SKILL.md", "content", "# Review"))))
                    .exchange(), 200);
            body(platform.patch("/api/v1/agents/{a}/skills/review", agent).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("enabled", false)).exchange(), 200);
            platform.faults(instance, List.of(Map.of("method", "cron/list", "latency_ms", 60_000, "times", 1)));
            inFlight = platform.operationOf(instance, "cron/list", Map.of());
            platform.awaitOperation(instance, inFlight, "running");
        }

        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            assertThat(body(platform.get("/api/v1/instances/{id}", instance).exchange(), 200).at("/data/status").asString())
                    .isEqualTo("running");
            JsonNode created = platform.operation(instance, create);
            assertThat(created.get("status").asString()).isEqualTo("succeeded");
            List<ServerSentEvent<String>> events = platform.events(instance, create, null, 10);
            assertThat(events).extracting(ServerSentEvent::id).containsExactly("0", "1", "2", "3", "4");
            JsonNode found = body(platform.get("/api/v1/agents/{a}", agent).exchange(), 200).get("data");
            assertThat(found.get("skills").toString()).isEqualTo("[{\"name\":\"review\",\"version\":\"1\",\"enabled\":false}]");
            JsonNode unknown = platform.awaitOperation(instance, inFlight, "outcome_unknown");
            assertThat(unknown.at("/error/code").asString()).isEqualTo("RUNTIME_OUTCOME_UNKNOWN");
            String after = platform.operationOf(instance, "skills/list", Map.of("agentId", agent));
            assertThat(platform.awaitOperation(instance, after, "succeeded").at("/result/skills/0/name").asString()).isEqualTo("review");
        }
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, "--agent-platform.embedded-postgres.durable=false", "--agent-platform.operations.answer-timeout=3s");
    }

    private PlatformClient client(ConfigurableApplicationContext service) {
        return StandaloneService.client(service, dataDir);
    }
}
