package org.agentplatform.api.task;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.FakeOpenAi;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Synchronous invoke through the running service: the agent's answer, the timeout that leaves the task
 * going on, and the contract's invoke failure mapping, case by case.
 */
class InvokeHttpTest extends ApiTest {

    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "invokable");
    }

    @Test
    void anInvokeAnswersWithTheAgentsReply() {
        JsonNode answer = body(invoke(owner, agent, Map.of("message", "hi there")), 200).get("data");
        assertThat(answer.get("status").asString()).isEqualTo("completed");
        assertThat(answer.get("text").asString()).isEqualTo("echo: hi there");
        assertThat(answer.get("origin").asString()).isEqualTo("invoke");
        assertThat(answer.get("final").asBoolean()).isTrue();
        String task = answer.get("task_id").asString();
        assertThat(owner.taskView(agent, task).get("status").asString()).isEqualTo("completed");
    }

    @Test
    void pastTheTimeoutItIs504WhileTheTaskGoesOnInTheInbox() {
        JsonNode error = assertError(invoke(owner, agent, Map.of("message", "take your time\n/echo take_ms=1500", "timeout_ms", 150)),
                504, "service_timeout", "");
        String task = error.at("/metadata/task_id").asString();
        assertThat(error.at("/metadata/context_id").asString()).isNotBlank();
        assertThat(owner.awaitTask(agent, task, "completed").get("text").asString()).isEqualTo("echo: take your time");
        JsonNode inbox = body(owner.get("/api/v1/tasks").exchange(), 200).at("/data/tasks");
        assertThat(inbox.findValuesAsString("task_id")).contains(task);
    }

    @Test
    void theTimeoutIsClampedNotRefused() {
        // a legacy 120000 is clamped (to 115000), not refused: the agent answers long before either
        assertThat(body(invoke(owner, agent, Map.of("message", "legacy", "timeout_ms", 120_000)), 200).at("/data/status").asString())
                .isEqualTo("completed");
        // below the floor: clamped to 100 ms, which the 504 reports; an agent that never answers cannot race it
        JsonNode error = assertError(invoke(owner, agent, Map.of("message", "stuck\n/echo then=hang", "timeout_ms", -5)), 504,
                "service_timeout", "");
        assertThat(error.at("/metadata/timeout_ms").asString()).isEqualTo("100");
        String task = error.at("/metadata/task_id").asString();
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).exchange(), 200);
    }

    @Test
    void aTaskWaitingForTheCallerIsAnAnswerToo() {
        JsonNode answer = body(invoke(owner, agent, Map.of("message", "which one?\n/echo then=input")), 200).get("data");
        assertThat(answer.get("status").asString()).isEqualTo("input_required");
        assertThat(answer.get("final").asBoolean()).isFalse();
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, answer.get("task_id").asString())
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "this one")).exchange(), 202);
        assertThat(owner.awaitTask(agent, answer.get("task_id").asString(), "completed").get("text").asString()).isEqualTo("echo: this one");
    }

    @Test
    void failuresMapAsTheContractSays() {
        JsonNode inBand = body(invoke(owner, agent, Map.of("message", "bad input\n/echo then=fail")), 200).get("data");
        assertThat(inBand.get("is_error").asBoolean()).isTrue();
        assertThat(inBand.toString()).doesNotContain("agent_reply_error");
        assertThat(inBand.at("/error/code").isNull()).isTrue();
        assertThat(inBand.get("text").asString()).isEqualTo("echo failed: bad input");
        JsonNode unavailable = assertError(invoke(owner, agent, Map.of("message", "x\n/echo then=unavailable")), 503,
                "agent_service_unavailable", "");
        assertThat(unavailable.at("/metadata/task_id").asString()).isNotBlank();
        assertError(invoke(owner, agent, Map.of("message", "x\n/echo then=error")), 500, "internal_error", "");
        JsonNode rejected = assertError(invoke(owner, agent, Map.of("message", "x\n/echo then=reject")), 409, "conflict", "");
        assertThat(rejected.get("message").asString()).contains("rejected");
        assertError(invoke(owner, UUID.randomUUID().toString(), Map.of("message", "anyone?")), 404, "agent_not_found", "");
        assertError(invoke(owner, "not-an-agent", Map.of("message", "anyone?")), 404, "agent_not_found", "");
        body(invoke(owner, agent, Map.of("message", "once", "idempotency_key", "inv-1")), 200);
        assertError(invoke(owner, agent, Map.of("message", "once", "idempotency_key", "inv-1")), 409, "conflict", "");
    }

    @Test
    void publicAgentsOfOthersCanBeInvokedPrivateOnesCannot() {
        PlatformClient stranger = stranger();
        assertError(invoke(stranger, agent, Map.of("message", "hello?")), 403, "forbidden", "");
        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 200);
        assertThat(body(invoke(stranger, agent, Map.of("message", "hello")), 200).at("/data/text").asString()).isEqualTo("echo: hello");
    }

    @Test
    void anAgentWhoseInstanceStoppedIsOfflineAndItsRunningTaskFails() {
        String task = owner.task(agent, "long job\n/echo take_ms=20000 deltas=4");
        owner.awaitTask(agent, task, "running");
        body(owner.post("/api/v1/instances/{i}/stop", instance).exchange(), 200);
        JsonNode failed = owner.awaitTask(agent, task, "failed");
        assertThat(failed.at("/error/code").asString()).isEqualTo("agent_service_unavailable");
        assertThat(failed.at("/error/message").asString()).startsWith("The agent is offline: ");
        List<ServerSentEvent<String>> tail = owner.taskEvents(agent, task, null, 100);
        assertThat(PlatformClient.data(tail.get(tail.size() - 2)).get("code").asString()).isEqualTo("agent_service_unavailable");
        assertThat(PlatformClient.data(tail.getLast()).get("code").asString()).isEqualTo("agent_service_unavailable");
        owner.awaitInstance(instance, "stopped");
        JsonNode offline = assertError(invoke(owner, agent, Map.of("message", "anyone?")), 503, "agent_service_unavailable", "");
        assertThat(offline.get("message").asString()).startsWith("The agent is offline: ");
        // the tasks API still refuses new work for a stopped instance as agent_offline (nothing ran yet)
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "anyone?")).exchange(), 503, "agent_offline", "");
    }

    @Test
    void anOpenAiCompatibleModelStreamsItsReplyAsDeltas() {
        String create = owner.operationOf(instance, "agent/create", Map.of("name", "gpt", "model", FakeOpenAi.MODEL));
        String gpt = owner.awaitOperation(instance, create, "succeeded").at("/projection/platformAgentId").asString();
        PlatformClient.await(() -> owner.get("/api/v1/agents/{a}", gpt).exchange().returnResult(String.class).getStatus().value(),
                status -> status == 200, "agent readable");
        JsonNode answer = body(invoke(owner, gpt, Map.of("message", "tell me more")), 200).get("data");
        assertThat(answer.get("text").asString()).isEqualTo("fake reply to: tell me more");
        JsonNode log = body(owner.get("/api/v1/agents/{a}/tasks/{t}/messages?include_deltas=true", gpt, answer.get("task_id").asString())
                .exchange(), 200).at("/data/messages");
        StringBuilder streamed = new StringBuilder();
        int deltas = 0;
        for (JsonNode entry : log) {
            if ("agent_reply_delta".equals(entry.get("kind").asString())) {
                streamed.append(entry.get("text").asString());
                deltas++;
            }
        }
        assertThat(deltas).isGreaterThan(1);
        assertThat(streamed).hasToString("fake reply to: tell me more");
    }

    @Test
    void invokeBodiesAreChecked() {
        assertError(invoke(owner, agent, Map.of("timeout_ms", 100)), 400, "missing_param", "message");
        assertError(invoke(owner, agent, Map.of("message", "x", "deadline_ms", 100)), 400, "invalid_body", "");
        assertError(invoke(owner, agent, Map.of("message", "x", "attachments", List.of(Map.of("file_id", "f-1")))), 400, "invalid_param",
                "attachments[0].file_id");
    }

    private static WebTestClient.ResponseSpec invoke(PlatformClient caller, String agentId, Map<String, ?> body) {
        return caller.post("/api/v1/agents/{a}/invoke", agentId).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }
}
