package org.agentplatform.infra.local;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.FakeOpenAi;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The local runtime's agents answer through a model backend (the echo model, or the configured
 * OpenAI-compatible endpoint, here a real fake one), and its cron entries really run on schedule.
 */
class ModelsAndCronHttpTest extends ApiTest {

    private PlatformClient platform;
    private String instance;

    @BeforeEach
    void anInstance() {
        platform = platform();
        instance = platform.runningInstance("linux");
    }

    @Test
    void aConfiguredEndpointsModelsJoinTheCatalog() {
        JsonNode models = body(platform.get("/api/v1/providers").exchange(), 200).at("/data/0/models");
        assertThat(models.toString()).contains("\"id\":\"echo\"").contains("\"id\":\"" + FakeOpenAi.MODEL + "\"").contains("openai");
        String listing = platform.operationOf(instance, "models/list", Map.of());
        assertThat(platform.awaitOperation(instance, listing, "succeeded").at("/result/models").toString())
                .contains(FakeOpenAi.MODEL);
    }

    @Test
    void anUnknownModelIsRefusedByTheRuntime() {
        String create = platform.operationOf(instance, "agent/create", Map.of("model", "gpt-none"));
        assertThat(platform.awaitOperation(instance, create, "failed").at("/error/code").asString()).isEqualTo("MODEL_NOT_AVAILABLE");
    }

    @Test
    void aCronEntryRunsOnScheduleThroughTheAgentsModel() {
        String create = platform.operationOf(instance, "agent/create", Map.of("name", "scheduled", "model", FakeOpenAi.MODEL));
        String agent = platform.awaitOperation(instance, create, "succeeded").at("/result/agentId").asString();
        String add = platform.operationOf(instance, "cron/add", Map.of("agentId", agent, "schedule", "* * * * * *", "prompt", "ping"));
        String cron = platform.awaitOperation(instance, add, "succeeded").at("/result/cronId").asString();
        JsonNode run = PlatformClient.await(() -> {
            String runs = platform.operationOf(instance, "cron/runs", Map.of("cronId", cron));
            return platform.awaitOperation(instance, runs, "succeeded").at("/result/runs/0");
        }, latest -> "succeeded".equals(latest.path("status").asString(null)), "a scheduled run");
        assertThat(run.get("trigger").asString()).isEqualTo("schedule");
        assertThat(run.get("output").asString()).isEqualTo("fake reply to: ping");
        String status = platform.operationOf(instance, "cron/status", Map.of("cronId", cron));
        assertThat(platform.awaitOperation(instance, status, "succeeded").at("/result/nextRunAt").asString()).isNotBlank();
        String pause = platform.operationOf(instance, "cron/update", Map.of("cronId", cron, "enabled", false));
        assertThat(platform.awaitOperation(instance, pause, "succeeded").at("/result/nextRunAt").isNull()).isTrue();
    }

    @Test
    void aManualRunIsATaskOfTheAgentsOwner() {
        String agent = platform.createAgent(instance, "echoing");
        String add = platform.operationOf(instance, "cron/add",
                Map.of("agentId", agent, "schedule", "0 3 * * *", "prompt", "hello", "enabled", false));
        String cron = platform.awaitOperation(instance, add, "succeeded").at("/result/cronId").asString();
        String run = platform.operationOf(instance, "cron/run", Map.of("cronId", cron));
        assertThat(platform.awaitOperation(instance, run, "succeeded").at("/result/status").asString()).isEqualTo("running");
        JsonNode latest = PlatformClient.await(() -> {
            String runs = platform.operationOf(instance, "cron/runs", Map.of("cronId", cron));
            return platform.awaitOperation(instance, runs, "succeeded").at("/result/runs/0");
        }, found -> "succeeded".equals(found.path("status").asString(null)), "the manual run");
        assertThat(latest.get("trigger").asString()).isEqualTo("manual");
        assertThat(latest.get("output").asString()).isEqualTo("echo: hello");
        JsonNode task = platform.taskView(agent, latest.get("taskId").asString());
        assertThat(task.get("origin").asString()).isEqualTo("cron");
        assertThat(task.get("status").asString()).isEqualTo("completed");
        String bad = platform.operationOf(instance, "cron/add", Map.of("agentId", agent, "schedule", "every tuesday", "prompt", "x"));
        assertThat(platform.awaitOperation(instance, bad, "failed").at("/error/code").asString()).isEqualTo("INVALID_PARAMS");
    }
}
