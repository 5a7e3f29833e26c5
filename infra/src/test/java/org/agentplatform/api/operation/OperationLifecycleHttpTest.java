package org.agentplatform.api.operation;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Every way an operation ends, its cancel, and its durable, resumable event stream. */
class OperationLifecycleHttpTest extends ApiTest {

    private PlatformClient platform;
    private String instance;

    @BeforeEach
    void anInstance() {
        platform = platform();
        instance = platform.runningInstance("linux");
    }

    @Test
    void agentCreateSucceedsWithItsPlatformAgentAndTheStreamShowsEveryStep() {
        String operation = platform.operationOf(instance, "agent/create", Map.of("name", "streamed"));
        List<ServerSentEvent<String>> events = platform.events(instance, operation, null, 10);
        assertThat(events).extracting(ServerSentEvent::event).containsExactly("operation.queued", "operation.running",
                "operation.runtime_committed", "operation.projection_pending", "operation.succeeded");
        assertThat(events).extracting(ServerSentEvent::id).containsExactly("0", "1", "2", "3", "4");
        JsonNode last = PlatformClient.data(events.getLast());
        assertThat(last.get("terminal").asBoolean()).isTrue();
        assertThat(last.get("effectState").asString()).isEqualTo("committed");
        String agent = last.at("/data/projection/platformAgentId").asString();
        JsonNode snapshot = platform.operation(instance, operation);
        assertThat(snapshot.at("/projection/state").asString()).isEqualTo("applied");
        assertThat(snapshot.at("/projection/platformAgentId").asString()).isEqualTo(agent);
        assertThat(snapshot.at("/result/agentId").asString()).isEqualTo(agent);
        PlatformClient.await(() -> body(platform.get("/api/v1/agents").exchange(), 200).toString(), agents -> agents.contains(agent),
                "agent listed");
    }

    @Test
    void aResumedStreamLosesAndRepeatsNothing() {
        String operation = platform.operationOf(instance, "agent/create", Map.of("name", "resumed"));
        platform.awaitOperation(instance, operation, "succeeded");
        List<ServerSentEvent<String>> first = platform.events(instance, operation, null, 2);
        assertThat(first).extracting(ServerSentEvent::id).containsExactly("0", "1");
        List<ServerSentEvent<String>> rest = platform.events(instance, operation, first.getLast().id(), 10);
        assertThat(rest).extracting(ServerSentEvent::id).containsExactly("2", "3", "4");
        assertThat(platform.events(instance, operation, "4", 10)).as("resuming after the terminal event ends at once").isEmpty();
        platform.get("/api/v1/instances/{i}/operations/{o}/events", instance, operation).header("Last-Event-ID", "4")
                .accept(MediaType.TEXT_EVENT_STREAM).exchange().expectStatus().isNoContent();
    }

    @Test
    void aCursorBeyondTheLastEventIsAhead() {
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        platform.awaitOperation(instance, operation, "succeeded");
        JsonNode ahead = body(platform.get("/api/v1/instances/{i}/operations/{o}/events", instance, operation)
                .header("Last-Event-ID", "99").accept(MediaType.TEXT_EVENT_STREAM).exchange(), 409);
        assertThat(ahead.get("code").asString()).isEqualTo("OPERATION_CURSOR_AHEAD");
        assertThat(ahead.get("operationId").asString()).isEqualTo(operation);
        assertThat(ahead.get("cursor").asString()).isEqualTo("99");
        assertThat(ahead.get("lastSequence").asString()).isEqualTo("3");
        assertThat(ahead.get("httpStatus").asInt()).isEqualTo(409);
        assertError(platform.get("/api/v1/instances/{i}/operations/{o}/events", instance, operation).header("Last-Event-ID", "x")
                .exchange(), 400, "invalid_param", "Last-Event-ID");
        assertError(platform.get("/api/v1/instances/{i}/operations/{o}/events", instance, operation)
                .header("Last-Event-ID", "1".repeat(129)).exchange(), 400, "invalid_param", "Last-Event-ID");
    }

    @Test
    void aRuntimeRefusalFailsTheOperationWithAFullError() {
        platform.faults(instance, List.of(Map.of("method", "cron/list", "fail_with", Map.of("code", "DISK_FULL", "message", "no space"),
                "times", 1)));
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        JsonNode failed = platform.awaitOperation(instance, operation, "failed");
        assertThat(failed.get("effectState").asString()).isEqualTo("failed");
        assertThat(failed.get("terminal").asBoolean()).isTrue();
        JsonNode error = failed.get("error");
        assertThat(error.get("code").asString()).isEqualTo("DISK_FULL");
        assertThat(error.get("message").asString()).isEqualTo("no space");
        assertThat(error.get("operationId").asString()).isEqualTo(operation);
        assertThat(error.get("effectState").asString()).isEqualTo("failed");
        assertThat(error.get("retryMode").asString()).isEqualTo("none");
        assertThat(error.get("requestId").asString()).isNotBlank();
        assertThat(error.get("context").isObject()).isTrue();
    }

    @Test
    void aSlowOperationCanBeCancelledAndTheSameKeyGetsTheSameAnswer() {
        platform.faults(instance, List.of(Map.of("method", "cron/list", "latency_ms", 20_000, "times", 1)));
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        platform.awaitOperation(instance, operation, "running");
        JsonNode accepted = body(cancel(operation, "cancel-1"), 200);
        assertThat(accepted.get("status").asString()).isEqualTo("cancel_requested");
        assertThat(accepted.get("operationId").asString()).isEqualTo(operation);
        JsonNode cancelled = platform.awaitOperation(instance, operation, "cancelled");
        assertThat(cancelled.get("effectState").asString()).isEqualTo("cancelled");
        assertThat(cancelled.at("/cancelRequest/requestedAt").asString()).isNotBlank();
        assertThat(cancelled.at("/error/code").asString()).isEqualTo("OPERATION_CANCELLED");
        assertThat(body(cancel(operation, "cancel-1"), 200).get("status").asString()).isEqualTo("cancel_requested");
        JsonNode refused = body(cancel(operation, "cancel-2"), 409);
        assertThat(refused.get("code").asString()).isEqualTo("OPERATION_NOT_CANCELLABLE");
        assertThat(refused.get("httpStatus").asInt()).isEqualTo(409);
    }

    @Test
    void pastTheRuntimesCommitACancelIsRefused() {
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        platform.awaitOperation(instance, operation, "succeeded");
        JsonNode refused = body(cancel(operation, "late"), 409);
        assertThat(refused.get("code").asString()).isEqualTo("OPERATION_NOT_CANCELLABLE");
        assertThat(refused.get("operationId").asString()).isEqualTo(operation);
    }

    @Test
    void aCancelNeedsAnIdempotencyKey() {
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        assertError(platform.post("/api/v1/instances/{i}/operations/{o}/cancel", instance, operation).exchange(), 400,
                "missing_param", "Idempotency-Key");
        assertError(cancel(operation, "k".repeat(129)), 400, "invalid_param", "Idempotency-Key");
        assertError(cancel(UUID.randomUUID().toString(), "k"), 404, "not_found", "");
    }

    @Test
    void anOperationNeverStartedBeforeItsDeadlineExpires() {
        body(platform.post("/api/v1/instances/{id}/stop", instance).exchange(), 200);
        String operation = platform.call(instance, "cron/list", Map.of(), "?deadline_ms=300").at("/result/id").asString();
        JsonNode expired = platform.awaitOperation(instance, operation, "expired");
        assertThat(expired.get("effectState").asString()).isEqualTo("expired");
        assertThat(expired.at("/error/code").asString()).isEqualTo("OPERATION_EXPIRED");
    }

    @Test
    void aQueuedOperationStartsWhenItsInstanceDoes() {
        body(platform.post("/api/v1/instances/{id}/stop", instance).exchange(), 200);
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        assertThat(platform.operation(instance, operation).get("status").asString()).isEqualTo("queued");
        body(platform.post("/api/v1/instances/{id}/start", instance).exchange(), 200);
        platform.awaitOperation(instance, operation, "succeeded");
    }

    @Test
    void aSilentRuntimeLeavesTheOutcomeUnknown() {
        platform.faults(instance, List.of(Map.of("method", "cron/list", "never_answer", true, "times", 1)));
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        JsonNode unknown = platform.awaitOperation(instance, operation, "outcome_unknown");
        assertThat(unknown.get("effectState").asString()).isEqualTo("outcome_unknown");
        assertThat(unknown.at("/error/code").asString()).isEqualTo("RUNTIME_OUTCOME_UNKNOWN");
        assertThat(unknown.at("/error/context/activeRuntimeEpoch").asString()).isEqualTo("1");
    }

    @Test
    void aCommitThePlatformCannotReflectIsProjectionBlocked() {
        // an agent made on the harness out of band: the runtime knows it, the platform does not
        UUID harnessOnly = UUID.randomUUID();
        jdbc().update("INSERT INTO local_agent (instance_id, agent_id, name, model, created_at, updated_at)"
                + " VALUES (?::uuid, ?, 'outside', 'echo', now(), now())", instance, harnessOnly);
        String operation = platform.operationOf(instance, "agent/update", Map.of("agentId", harnessOnly.toString(), "name", "renamed"));
        JsonNode blocked = platform.awaitOperation(instance, operation, "projection_blocked");
        assertThat(blocked.get("effectState").asString()).isEqualTo("committed");
        assertThat(blocked.get("terminal").asBoolean()).isTrue();
        assertThat(blocked.at("/projection/state").asString()).isEqualTo("blocked");
        assertThat(blocked.at("/error/code").asString()).isEqualTo("PROJECTION_BLOCKED");
    }

    @Test
    void anOperationIsOnlyFoundUnderItsOwnInstanceAndOwner() {
        String operation = platform.operationOf(instance, "cron/list", Map.of());
        String other = platform.runningInstance("linux");
        assertError(platform.get("/api/v1/instances/{i}/operations/{o}", other, operation).exchange(), 404, "not_found", "");
        assertError(stranger().get("/api/v1/instances/{i}/operations/{o}", instance, operation).exchange(), 404, "not_found", "");
        assertError(platform.get("/api/v1/instances/{i}/operations/nope", instance).exchange(), 400, "invalid_param", "operationId");
    }

    private WebTestClient.ResponseSpec cancel(String operation, String key) {
        return platform.post("/api/v1/instances/{i}/operations/{o}/cancel", instance, operation).header("Idempotency-Key", key).exchange();
    }
}
