package org.agentplatform.api.audit;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.audit.AuditChain;
import org.agentplatform.infra.audit.AuditCheckpoints;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The auditor's reads through the running service: a task's history with who caused each event and through which
 * request, process-caused events naming the process and the event they answer, paging, another owner's resource,
 * the NDJSON export, bad parameters, and signed checkpoints that verify against the JWKS.
 */
class AuditHttpTest extends ApiTest {

    @Autowired
    private AuditCheckpoints checkpoints;

    @Autowired
    private EventProcessingConfiguration processing;

    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        agent = owner.createAgent(owner.runningInstance("linux"), "audited");
    }

    @Test
    void aTasksHistoryListsItsEventsWithActorRequestIdAndCause() {
        String requestId = "req-" + UUID.randomUUID();
        String task = body(owner.post("/api/v1/agents/{a}/tasks", agent).header("X-Request-Id", requestId)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "audit me")).exchange(), 202).at("/data/task_id").asString();
        owner.awaitTask(agent, task, "completed");

        JsonNode events = await(() -> trail("task", task, null), page -> types(page).contains("TaskCompleted"), "the task's history")
                .get("events");
        assertThat(types(history("task", task, null))).containsExactly("TaskCreated", "TaskStarted", "TaskTurnBegan", "TaskCompleted");
        JsonNode created = events.get(0);
        assertThat(created.get("resource_type").asString()).isEqualTo("task");
        assertThat(created.get("resource_id").asString()).isEqualTo(task);
        assertThat(created.get("sequence").asLong()).isZero();
        assertThat(created.get("request_id").asString()).isEqualTo(requestId);
        assertThat(created.get("actor").asString()).startsWith("key:");
        assertThat(created.get("caused_by").isNull()).isTrue();
        assertThat(created.get("occurred_at").asString()).isNotBlank();
        assertThat(created.at("/data/message/text").asString()).isEqualTo("audit me");
        // the creation started it (its instance served), in the same request
        JsonNode started = events.get(1);
        assertThat(started.get("actor").asString()).isEqualTo(created.get("actor").asString());
        assertThat(started.get("caused_by").isNull()).isTrue();
        assertThat(started.get("request_id").asString()).isEqualTo(requestId);
        // the runtime reported the reply
        assertThat(events.get(2).get("actor").asString()).isEqualTo("system:runtime");
        assertThat(events.get(0).get("position").asLong()).isLessThan(events.get(1).get("position").asLong());
    }

    @Test
    void pagesFollowNextSince() {
        String task = owner.task(agent, "page me");
        owner.awaitTask(agent, task, "completed");
        await(() -> trail("task", task, null), page -> page.get("events").size() == 4, "the task's history");
        List<String> seen = new ArrayList<>();
        String since = null;
        for (int page = 0; page < 5; page++) {
            JsonNode answer = body(owner.get("/api/v1/audit/events?resource_type=task&resource_id={t}&limit=1"
                    + (since == null ? "" : "&since=" + since), task).exchange(), 200).get("data");
            if (answer.get("events").isEmpty()) {
                assertThat(answer.get("next_since").asString()).isEqualTo(since);
                break;
            }
            seen.add(answer.get("events").get(0).get("type").asString());
            since = answer.get("next_since").asString();
        }
        assertThat(seen).containsExactly("TaskCreated", "TaskStarted", "TaskTurnBegan", "TaskCompleted");
    }

    @Test
    void anotherOwnersResourceIsNotFoundAndTheirEventsAreNotListed() {
        String task = owner.task(agent, "mine");
        owner.awaitTask(agent, task, "completed");
        await(() -> trail("task", task, null), page -> page.get("events").size() == 4, "the task's history");
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/audit/events?resource_type=task&resource_id={t}", task).exchange(), 404, "not_found", "");
        JsonNode theirs = body(stranger.get("/api/v1/audit/events").exchange(), 200).get("data").get("events");
        for (JsonNode event : theirs) {
            assertThat(event.get("resource_id").asString()).isNotEqualTo(task);
        }
    }

    @Test
    void badParametersAreRefusedNamingThem() {
        assertError(owner.get("/api/v1/audit/events?resource_type=spaceship").exchange(), 400, "invalid_param", "resource_type");
        assertError(owner.get("/api/v1/audit/events?resource_id=x").exchange(), 400, "missing_param", "resource_type");
        assertError(owner.get("/api/v1/audit/events?since=-1").exchange(), 400, "invalid_param", "since");
        assertError(owner.get("/api/v1/audit/events?limit=many").exchange(), 400, "invalid_param", "limit");
        assertError(owner.get("/api/v1/audit/export?since=yesterday").exchange(), 400, "invalid_param", "since");
        assertError(owner.get("/api/v1/audit/export?until=2026-13-01T00:00:00Z").exchange(), 400, "invalid_param", "until");
    }

    @Test
    void theExportStreamsTheOwnersEventsAsNdjsonWithTheirLinks() {
        String task = owner.task(agent, "export me");
        owner.awaitTask(agent, task, "completed");
        String created = await(() -> trail("task", task, null), page -> page.get("events").size() == 4, "the task's history")
                .at("/events/0/occurred_at").asString();
        byte[] raw = owner.get("/api/v1/audit/export?since={since}", created).exchange()
                .expectStatus().isOk()
                .expectHeader().contentType("application/x-ndjson")
                .expectBody().returnResult().getResponseBody();
        List<JsonNode> lines = new String(raw, StandardCharsets.UTF_8).lines().map(JSON::readTree).toList();
        List<JsonNode> ofTask = lines.stream().filter(line -> task.equals(line.get("resource_id").asString())).toList();
        assertThat(ofTask).extracting(line -> line.get("type").asString())
                .containsExactly("TaskCreated", "TaskStarted", "TaskTurnBegan", "TaskCompleted");
        JsonNode first = ofTask.getFirst();
        assertThat(first.at("/chain/link").asString()).hasSize(64);
        assertThat(first.at("/stored/payload").asString()).isNotBlank();
        // a range that ends before the task existed has none of it
        byte[] before = owner.get("/api/v1/audit/export?until=2000-01-01T00:00:00Z").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody();
        assertThat(before == null ? "" : new String(before, StandardCharsets.UTF_8)).doesNotContain(task);
    }

    @Test
    void aCheckpointSignsTheChainsHeadAndVerifiesAgainstTheJwks() throws Exception {
        String task = owner.task(agent, "checkpoint me");
        owner.awaitTask(agent, task, "completed");
        await(() -> trail("task", task, null), page -> page.get("events").size() == 4, "the task's history");
        checkpoints.checkpoint();
        JsonNode newest = body(owner.get("/api/v1/audit/checkpoints").exchange(), 200).at("/data/checkpoints/0");
        SignedJWT jws = SignedJWT.parse(newest.get("jws").asString());
        String jwks = http.get().uri("/.well-known/jwks.json").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        RSAKey key = (RSAKey) JWKSet.parse(jwks).getKeyByKeyId(jws.getHeader().getKeyID());
        assertThat(jws.verify(new RSASSAVerifier(key))).isTrue();
        assertThat(jws.getJWTClaimsSet().getLongClaim("position")).isEqualTo(newest.get("position").asLong());
        assertThat(jws.getJWTClaimsSet().getStringClaim("link")).isEqualTo(newest.get("link").asString());
        assertThat(jdbc().queryForObject("SELECT encode(link, 'hex') FROM audit_event WHERE position = ?", String.class,
                newest.get("position").asLong())).isEqualTo(newest.get("link").asString());
    }

    @Test
    void asOfAnswersTheResourceAsItStoodThen() {
        // a turn that takes its time tells the task it began as it begins: a command (and instant) of its own
        String message = "as of\n/echo deltas=2 take_ms=200";
        String task = owner.task(agent, message);
        owner.awaitTask(agent, task, "completed");
        JsonNode events = await(() -> trail("task", task, null), page -> page.get("events").size() == 4, "the task's history")
                .get("events");
        String created = events.get(0).get("occurred_at").asString();
        assertThat(events.get(2).get("type").asString()).isEqualTo("TaskTurnBegan");
        String started = events.get(2).get("occurred_at").asString();
        JsonNode then = body(owner.get("/api/v1/agents/{a}/tasks/{t}?as_of={at}", agent, task, created).exchange(), 200).get("data");
        assertThat(then.get("status").asString()).as("handed over, its turn waiting for a worker").isEqualTo("queued");
        assertThat(then.get("history")).extracting(entry -> entry.get("text").asString()).containsExactly(message);
        JsonNode running = body(owner.get("/api/v1/agents/{a}/tasks/{t}?as_of={at}", agent, task, started).exchange(), 200).get("data");
        assertThat(running.get("status").asString()).isEqualTo("running");
        assertThat(owner.taskView(agent, task).get("status").asString()).isEqualTo("completed");
        String before = java.time.Instant.parse(created).minusSeconds(60).toString();
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}?as_of={at}", agent, task, before).exchange(), 404, "not_found", "");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}?as_of=noon", agent, task).exchange(), 400, "invalid_param", "as_of");
        assertError(stranger().get("/api/v1/agents/{a}/tasks/{t}?as_of={at}", agent, task, started).exchange(), 404, "agent_not_found", "");
    }

    @Test
    void asOfOnAnInstanceAndAnOperation() {
        String instance = owner.runningInstance("linux");
        JsonNode events = await(() -> trail("instance", instance, null), page -> page.get("events").size() >= 2, "the instance's history")
                .get("events");
        String deployed = events.get(0).get("occurred_at").asString();
        JsonNode then = body(owner.get("/api/v1/instances/{i}?as_of={at}", instance, deployed).exchange(), 200).get("data");
        assertThat(then.get("status").asString()).isEqualTo("deploying");
        assertThat(body(owner.get("/api/v1/instances/{i}", instance).exchange(), 200).at("/data/status").asString()).isEqualTo("running");

        String operation = owner.operationOf(instance, "models/list", java.util.Map.of());
        owner.awaitOperation(instance, operation, "succeeded");
        JsonNode operationEvents = await(() -> trail("operation", operation, null),
                page -> types(page).contains("OperationSucceeded") || page.get("events").size() >= 4, "the operation's history").get("events");
        String queued = operationEvents.get(0).get("occurred_at").asString();
        JsonNode asQueued = body(owner.get("/api/v1/instances/{i}/operations/{o}?as_of={at}", instance, operation, queued).exchange(), 200);
        assertThat(asQueued.get("status").asString()).isEqualTo("queued");
    }

    @Test
    void asOfOnAWebhookDelivery() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.answer("/hook", 200);
            String task = owner.task(agent, Map.of("message", "notify", "webhooks", List.of(Map.of("url", receiver.url("/hook")))))
                    .at("/data/task_id").asString();
            owner.awaitTask(agent, task, "completed");
            String webhook = body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200)
                    .at("/data/webhooks/0/webhook_id").asString();
            JsonNode delivered = await(() -> body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries", agent, task, webhook)
                    .exchange(), 200).at("/data/deliveries/0"), row -> "succeeded".equals(row.path("status").asString()), "a delivery");
            String delivery = delivered.get("delivery_id").asString();
            String path = "/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries/{d}";
            assertThat(body(owner.get(path, agent, task, webhook, delivery).exchange(), 200).at("/data/status").asString()).isEqualTo("succeeded");
            String created = await(() -> trail("delivery", delivery, null), page -> page.get("events").size() >= 2, "the delivery's history")
                    .at("/events/0/occurred_at").asString();
            JsonNode then = body(owner.get(path + "?as_of={at}", agent, task, webhook, delivery, created).exchange(), 200).get("data");
            assertThat(then.get("status").asString()).isEqualTo("pending");
            assertThat(then.get("attempt_num").asInt()).isZero();
            assertError(owner.get(path, agent, task, webhook, UUID.randomUUID()).exchange(), 404, "not_found", "");
        }
    }

    /**
     * The resource's history as the trail has it so far: until the audit chain has recorded the resource's first event,
     * the trail does not know the resource (404), which a wait reads as nothing yet.
     */
    @Test
    void aTaskNotChainedYetHasAHistoryToComeNotA404() {
        EventProcessor chain = processing.eventProcessor(AuditChain.GROUP).orElseThrow();
        chain.shutDown();
        try {
            String task = owner.task(agent, "not chained yet");
            // stored but not chained (the chain's processor is stopped): waited for, then 504 to read again, never 404
            JsonNode refusal = assertError(owner.get("/api/v1/audit/events?resource_type=task&resource_id={i}", task).exchange(), 504,
                    "service_timeout", "");
            assertThat(refusal.get("message").asString()).contains("history");
            chain.start();
            assertThat(types(history("task", task, null))).first().isEqualTo("TaskCreated");
        } finally {
            if (!chain.isRunning()) {
                chain.start();
            }
        }
        // an id no store holds is still 404 at once
        assertError(owner.get("/api/v1/audit/events?resource_type=task&resource_id={i}", UUID.randomUUID()).exchange(), 404, "not_found", "");
    }

    /** An owner's own history (the erasures of its content, events of no aggregate) is waited for too; another's is 404 at once. */
    @Test
    void anOwnersErasureNotChainedYetIsWaitedForAndAnotherOwnersHistoryIs404() {
        PlatformClient erasing = stranger();
        EventProcessor chain = processing.eventProcessor(AuditChain.GROUP).orElseThrow();
        chain.shutDown();
        try {
            String ownerId = body(erasing.delete("/api/v1/owners/me/content").exchange(), 200).at("/data/owner_id").asString();
            assertError(erasing.get("/api/v1/audit/events?resource_type=owner&resource_id={o}", ownerId).exchange(), 504, "service_timeout", "");
            assertError(owner.get("/api/v1/audit/events?resource_type=owner&resource_id={o}", ownerId).exchange(), 404, "not_found", "");
            chain.start();
            JsonNode history = body(erasing.get("/api/v1/audit/events?resource_type=owner&resource_id={o}", ownerId).exchange(), 200)
                    .get("data");
            assertThat(types(history)).containsExactly("OwnerContentErased");
        } finally {
            if (!chain.isRunning()) {
                chain.start();
            }
        }
    }

    private JsonNode trail(String type, String id, String since) {
        var response = owner.get("/api/v1/audit/events?resource_type={t}&resource_id={i}" + (since == null ? "" : "&since=" + since), type, id)
                .exchange().expectBody().returnResult();
        if (response.getStatus().value() == 404) {
            return JSON.readTree("{\"events\": []}");
        }
        assertThat(response.getStatus().value()).isEqualTo(200);
        return JSON.readTree(response.getResponseBody()).get("data");
    }

    private JsonNode history(String type, String id, String since) {
        return body(owner.get("/api/v1/audit/events?resource_type={t}&resource_id={i}" + (since == null ? "" : "&since=" + since), type, id)
                .exchange(), 200).get("data");
    }

    private static List<String> types(JsonNode page) {
        List<String> types = new ArrayList<>();
        page.get("events").forEach(event -> types.add(event.get("type").asString()));
        return types;
    }
}
