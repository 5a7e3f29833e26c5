package org.agentplatform.api.webhook;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.infra.app.webhook.WebhookSweeper;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver.Callback;
import org.agentplatform.infra.support.WebhookReceiver;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.webhook.DeliveryDispatcher.Pending;
import org.agentplatform.webhook.DeliveryDispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Task webhooks through the running service with real receivers: signed callbacks for every status
 * transition, failures retried on the (test-shortened) schedule up to dead_letter, 3xx not followed,
 * redeliver with the same bytes and signature, deletion stopping attempts, and the SSRF guard.
 */
class WebhookHttpTest extends ApiTest {

    private static final String SECRET = "whsec-0123456789abcdef";
    private static final String TOKEN = "receiver-token-1";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WebhookReceiver receiver = new WebhookReceiver();

    @Autowired
    private DeliveryDispatcher dispatcher;
    @Autowired
    private WebhookSweeper sweeper;
    @Autowired
    private DataSource dataSource;
    private PlatformClient owner;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        agent = owner.createAgent(owner.runningInstance("linux"), "notifier");
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void aReceiverGetsSignedCallbacksForEveryTransitionTheLastOneFinal() {
        JsonNode created = owner.task(agent, Map.of("message", "work\n/echo take_ms=300",
                "webhooks", List.of(Map.of("url", receiver.url("/hook"), "secret", SECRET, "token", TOKEN)))).get("data");
        String task = created.get("task_id").asString();
        List<Callback> callbacks = receiver.await("/hook", 3);
        assertThat(callbacks).extracting(callback -> payload(callback).get("status").asString())
                .containsExactly("queued", "running", "completed");
        assertThat(callbacks).extracting(callback -> payload(callback).get("final").asBoolean()).containsExactly(false, false, true);
        for (Callback callback : callbacks) {
            assertThat(WebhookReceiver.verify(callback, SECRET, Instant.now())).isTrue();
            assertThat(WebhookReceiver.verify(callback, "another-secret-value", Instant.now())).isFalse();
            assertThat(callback.header("Content-Type")).isEqualTo("application/json");
            assertThat(callback.header("X-Service-Webhook-Format")).isEqualTo("openapi");
            assertThat(callback.header("Authorization")).isEqualTo("Bearer " + TOKEN);
            assertThat(callback.header("X-Service-Event")).isEqualTo("task.state");
            assertThat(callback.header("X-Service-Task-Id")).isEqualTo(task);
            JsonNode payload = payload(callback);
            assertThat(fieldNames(payload)).containsExactly("type", "task_id", "context_id", "status", "final", "timestamp");
            assertThat(payload.get("type").asString()).isEqualTo("task_status");
            assertThat(payload.get("context_id").asString()).isEqualTo(created.get("context_id").asString());
        }
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        // the receiver has answered the last one; its success is recorded a moment later
        JsonNode rows = PlatformClient.await(() -> deliveries(task, webhook, ""), found -> found.size() == 3
                && found.valueStream().allMatch(row -> "succeeded".equals(row.get("status").asString())), "three deliveries recorded");
        assertThat(rows).hasSize(3).allSatisfy(row -> {
            assertThat(row.get("status").asString()).isEqualTo("succeeded");
            assertThat(row.get("attempt_num").asInt()).isEqualTo(1);
            assertThat(row.get("last_response_status").asInt()).isEqualTo(200);
            assertThat(row.get("last_error").asString()).isEmpty();
            assertThat(row.get("renderer").asString()).isEqualTo("openapi");
            assertThat(row.get("completed_at").asString()).isNotBlank();
            assertThat(row.has("payload")).isFalse();
        });
    }

    @Test
    void aWebhookRegisteredOnAWaitingTaskGetsTheTransitionsThatFollow() {
        String task = owner.task(agent, "which?\n/echo then=input");
        owner.awaitTask(agent, task, "input_required");
        JsonNode registered = body(register(task, Map.of("url", receiver.url("/later"))), 201).get("data");
        assertThat(registered.get("has_secret").asBoolean()).isFalse();
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "that one")).exchange(), 202);
        // the caller's answer waits for a worker (queued), which then works on it (running)
        List<Callback> callbacks = receiver.await("/later", 3);
        assertThat(callbacks).extracting(callback -> payload(callback).get("status").asString())
                .containsExactly("queued", "running", "completed");
        assertThat(callbacks.getLast().text()).contains("\"final\":true");
        assertThat(callbacks.getFirst().header("X-Service-Signature")).isNull();
        assertThat(callbacks.getFirst().header("X-Service-Event")).isNull();
        assertThat(callbacks.getFirst().header("Authorization")).isNull();
    }

    @Test
    void registrationRotatesSecretsAndNeverShowsThem() {
        String task = owner.task(agent, "wait\n/echo then=input");
        owner.awaitTask(agent, task, "input_required");
        String url = receiver.url("/rotating");
        JsonNode first = body(register(task, Map.of("url", url, "secret", SECRET, "token", TOKEN)), 201).get("data");
        assertThat(fieldNames(first)).contains("webhook_id", "task_id", "url", "has_secret", "created_at").doesNotContain("secret", "token");
        assertThat(first.get("has_secret").asBoolean()).isTrue();
        JsonNode untouched = body(register(task, Map.of("url", url, "secret", "")), 201).get("data");
        assertThat(untouched.get("webhook_id").asString()).isEqualTo(first.get("webhook_id").asString());
        assertThat(untouched.get("has_secret").asBoolean()).isTrue();
        String rotated = "whsec-rotated-0123456789";
        body(register(task, Map.of("url", url, "secret", rotated)), 201);
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "go")).exchange(), 202);
        Callback callback = receiver.await("/rotating", 1).getFirst();
        assertThat(WebhookReceiver.verify(callback, rotated, Instant.now())).isTrue();
        assertThat(WebhookReceiver.verify(callback, SECRET, Instant.now())).isFalse();
        assertThat(callback.header("Authorization")).isEqualTo("Bearer " + TOKEN);

        JsonNode listed = listWebhooks(task);
        assertThat(listed).hasSize(1);
        assertThat(listed.toString()).doesNotContain(SECRET, rotated, TOKEN);
        Integer leaks = jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE position(?::bytea in payload) > 0"
                + " OR position(?::bytea in payload) > 0 OR position(?::bytea in payload) > 0", Integer.class,
                SECRET.getBytes(StandardCharsets.UTF_8), rotated.getBytes(StandardCharsets.UTF_8), TOKEN.getBytes(StandardCharsets.UTF_8));
        assertThat(leaks).isZero();
    }

    @Test
    void anAttemptWhoseEventIsHandledAgainAfterItsOutcomeWasRecordedIsNotSentTwice() {
        // what a node taking over a dead node's segment does with the events after the dead node's last checkpoint
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", receiver.url("/once"), "secret", SECRET)))).at("/data/task_id").asString();
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        JsonNode settled = PlatformClient.await(() -> deliveries(task, webhook, ""),
                rows -> rows.size() == 3 && rows.valueStream().allMatch(row -> "succeeded".equals(row.get("status").asString())),
                "three deliveries succeeded").get(2);
        UUID deliveryId = UUID.fromString(settled.get("delivery_id").asString());
        String payload = jdbc().queryForObject("SELECT payload FROM delivery_view WHERE id = ?", String.class, deliveryId);
        int before = receiver.callbacks("/once").size();

        Pending replayed = new Pending(new DeliveryId(deliveryId), new WebhookId(UUID.fromString(webhook)), new TaskId(UUID.fromString(task)),
                1, payload, null, "replay", 0);
        dispatcher.attempt(replayed);
        PlatformClient.await(() -> dispatcher.isInFlight(replayed.deliveryId()), inFlight -> !inFlight, "the replayed attempt handled");
        assertThat(receiver.callbacks("/once")).hasSize(before);
        // the sweep's way in makes the same check
        assertThat(dispatcher.attemptIfStillDue(replayed.deliveryId(), Instant.now().plus(Duration.ofHours(1)))).isFalse();

        // past that check (an attempt said due after the recorded outcome), the delivery itself refuses to start the attempt
        Pending later = new Pending(replayed.deliveryId(), replayed.webhookId(), replayed.taskId(), 1, payload, null, "later", 1);
        dispatcher.attempt(later);
        PlatformClient.await(() -> dispatcher.isInFlight(later.deliveryId()), inFlight -> !inFlight, "the later attempt handled");
        assertThat(receiver.callbacks("/once")).hasSize(before);
    }

    /**
     * The sweep, forced to run while an attempt is under way and again once its success is stored but the audit rows,
     * held back as a flood's backlog holds them, still say pending: it attempts nothing, and the receiver, counting, gets
     * each transition once.
     */
    @Test
    void theSweepSendsNothingTwiceHoweverFarTheAuditRowsLag() throws Exception {
        receiver.hold("/counted");
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", receiver.url("/counted"), "secret", SECRET)))).at("/data/task_id").asString();
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        receiver.await("/counted", 1);
        // the first transition's row (newest first: the last), being delivered; the later ones wait for it
        JsonNode rows = PlatformClient.await(() -> deliveries(task, webhook, ""), found -> found.size() == 3, "three rows");
        JsonNode pending = rows.get(2);
        assertThat(payloadStatus(pending)).isEqualTo("queued");
        assertThat(rows).allSatisfy(row -> assertThat(row.get("status").asString()).isEqualTo("pending"));
        clock.advance(Duration.ofMinutes(2));
        assertThat(sweeper.sweep()).as("attempted during the delivery").isZero();

        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM delivery_view WHERE id = ?::uuid FOR UPDATE")) {
                lock.setString(1, pending.get("delivery_id").asString());
                lock.executeQuery().close();
            }
            receiver.release("/counted");
            PlatformClient.await(() -> storedOutcomes(pending.get("delivery_id").asString()), outcomes -> outcomes == 1,
                    "the success in the store");
            assertThat(jdbc().queryForObject("SELECT status FROM delivery_view WHERE id = ?::uuid", String.class,
                    pending.get("delivery_id").asString())).as("the audit row still behind").isEqualTo("pending");
            assertThat(sweeper.sweep()).as("attempted after the success").isZero();
            holder.rollback();
        }
        owner.awaitTask(agent, task, "input_required");
        List<Callback> all = receiver.await("/counted", 3);
        assertThat(all).extracting(callback -> payload(callback).get("status").asString())
                .containsExactly("queued", "running", "input_required");
    }

    private String payloadStatus(JsonNode row) {
        return JSON.readTree(jdbc().queryForObject("SELECT payload FROM delivery_view WHERE id = ?::uuid", String.class,
                row.get("delivery_id").asString())).get("status").asString();
    }

    private int storedOutcomes(String delivery) {
        return jdbc().queryForObject("SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%DeliverySucceeded'", Integer.class, delivery);
    }

    @Test
    void registrationsAreChecked() {
        String task = owner.task(agent, "x\n/echo then=input");
        assertError(register(task, Map.of("secret", SECRET)), 400, "missing_param", "url");
        assertError(register(task, Map.of("url", "ftp://example.com/hook")), 400, "invalid_param", "url");
        assertError(register(task, Map.of("url", "/relative")), 400, "invalid_param", "url");
        assertError(register(task, Map.of("url", "https://example.com/hook", "secret", "short")), 400, "invalid_param", "secret");
        assertError(register(task, Map.of("url", "https://example.com/hook", "secret", "s".repeat(257))), 400, "invalid_param", "secret");
        assertError(register(task, Map.of("url", "https://example.com/hook", "colour", "red")), 400, "invalid_body", "");
        assertError(register(task, Map.of("url", "https://example.com/" + "a".repeat(70 * 1024))), 413, "payload_too_large", "");
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "x", "webhooks", List.of(Map.of("url", "nope")))).exchange(), 400, "invalid_param",
                "webhooks[0].url");
        // credentials in the URL would be kept in the event store and answered back: they belong in 'token'
        JsonNode credentials = assertError(register(task, Map.of("url", "https://user:hunter2@example.com/hook")), 400, "invalid_param", "url");
        assertThat(credentials.toString()).doesNotContain("hunter2");
        assertError(register(task, Map.of("url", "https://user@example.com/hook")), 400, "invalid_param", "url");
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "x", "webhooks", List.of(Map.of("url", "http://a:b@example.com/")))).exchange(), 400, "invalid_param",
                "webhooks[0].url");
        assertThat(body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200).toString()).doesNotContain("hunter2");
        assertError(stranger().post("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("url", "https://example.com/hook")).exchange(), 404, "agent_not_found", "");
    }

    @Test
    void aFailingReceiverIsRetriedOnScheduleUntilDeadLetterThenRedeliverSendsTheSameBytesSignedAfresh() {
        receiver.answer("/failing", 500);
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", receiver.url("/failing"), "secret", SECRET)))).at("/data/task_id").asString();
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        JsonNode failed = oldestFailed(task, webhook);
        JsonNode queuedRow = PlatformClient.await(() -> deliveries(task, webhook, ""), rows -> rows.size() == 3, "three rows")
                .get(2);
        assertThat(failed.get("last_response_status").asInt()).isEqualTo(500);
        assertThat(failed.get("last_error").asString()).isEqualTo("HTTP 500");
        String deliveryId = queuedRow.get("delivery_id").asString();
        JsonNode deadLetter = PlatformClient.await(() -> delivery(task, webhook, deliveryId),
                row -> "dead_letter".equals(row.get("status").asString()), "dead letter");
        assertThat(deadLetter.get("attempt_num").asInt()).isEqualTo(6);
        assertThat(deadLetter.get("next_attempt_at").isNull()).isTrue();
        List<Callback> attempts = receiver.callbacks("/failing").stream()
                .filter(callback -> payload(callback).get("status").asString().equals("queued")).toList();
        // six attempts, then dead_letter; the delays between them are the saga's, proven with the fixture (DeliverySagaTest)
        assertThat(attempts).hasSize(6);

        receiver.answer("/failing", 200);
        int before = receiver.callbacks("/failing").size();
        long requested = Instant.now().getEpochSecond();
        JsonNode clone = body(redeliver(task, webhook, deliveryId), 202).get("data");
        assertThat(clone.get("status").asString()).isEqualTo("pending");
        assertThat(clone.get("attempt_num").asInt()).isZero();
        assertThat(clone.get("redelivery_of").asString()).isEqualTo(deliveryId);
        // the other transitions' deliveries may still be retrying: the redelivery is the only "queued" callback after `before`
        Callback resent = PlatformClient.await(() -> receiver.callbacks("/failing").stream().skip(before)
                        .filter(callback -> payload(callback).get("status").asString().equals("queued")).findFirst(),
                Optional::isPresent, "the redelivery").orElseThrow();
        assertThat(resent.body()).isEqualTo(attempts.getLast().body());
        // signed afresh: a receiver with the recommended tolerance accepts it however old the source delivery is
        assertThat(Long.parseLong(resent.header("X-Service-Signature").replaceAll("^t=(\\d+),.*$", "$1"))).isGreaterThanOrEqualTo(requested);
        assertThat(WebhookReceiver.verify(resent, SECRET, Instant.now())).isTrue();
        assertThat(WebhookReceiver.verify(resent, SECRET, Instant.ofEpochSecond(requested).plus(Duration.ofMinutes(4)))).isTrue();
        assertThat(PlatformClient.await(() -> delivery(task, webhook, clone.get("delivery_id").asString()),
                row -> "succeeded".equals(row.get("status").asString()), "redelivered").get("attempt_num").asInt()).isEqualTo(1);
        assertThat(delivery(task, webhook, deliveryId).get("status").asString()).isEqualTo("dead_letter");

        assertError(redeliver(task, webhook, clone.get("delivery_id").asString()), 409, "conflict", "");
        assertError(redeliver(task, webhook, UUID.randomUUID().toString()), 404, "not_found", "");
        assertError(stranger().post("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries/{d}/redeliver", agent, task, webhook,
                deliveryId).exchange(), 403, "forbidden", "");
        assertThat(deliveries(task, webhook, "?limit=1")).hasSize(1);
        assertThat(deliveries(task, webhook, "?limit=0")).hasSize(1);
        assertThat(deliveries(task, webhook, "?limit=5000").size()).isEqualTo(deliveries(task, webhook, "").size());
    }

    /** A webhook's deliveries go one after the other: while the receiver fails, only the first transition is tried again. */
    @Test
    void aTransitionIsNotSentBeforeTheOneBeforeItIsDelivered() {
        for (int run = 0; run < 3; run++) {
            String path = "/round-" + run;
            receiver.answer(path, 500);
            String task = owner.task(agent, Map.of("message", "in order " + run, "webhooks",
                    List.of(Map.of("url", receiver.url(path), "secret", SECRET)))).at("/data/task_id").asString();
            owner.awaitTask(agent, task, "completed");
            List<Callback> failing = receiver.await(path, 2);
            assertThat(failing).as("run %d", run).extracting(callback -> payload(callback).get("status").asString())
                    .containsOnly("queued");
            receiver.answer(path, 200);
            List<Callback> all = PlatformClient.await(() -> receiver.callbacks(path), list -> !list.isEmpty()
                    && "completed".equals(payload(list.getLast()).get("status").asString()), "the final transition delivered");
            List<String> delivered = all.stream().filter(callback -> callback.answered() == 200)
                    .map(callback -> payload(callback).get("status").asString()).toList();
            assertThat(delivered).as("run %d", run).containsExactly("queued", "running", "completed");
            assertThat(all.subList(0, all.size() - 2)).extracting(callback -> payload(callback).get("status").asString()).containsOnly("queued");
        }
    }

    @Test
    void aRedirectIsNotFollowedAndCountsAsAFailure() {
        receiver.answer("/moved", 302);
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", receiver.url("/moved"))))).at("/data/task_id").asString();
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        JsonNode row = oldestFailed(task, webhook);
        assertThat(row.get("last_response_status").asInt()).isEqualTo(302);
        assertThat(row.get("last_error").asString()).contains("not followed");
        assertThat(row.get("next_attempt_at").asString()).isNotBlank();
        assertThat(Duration.between(Instant.parse(row.get("last_attempted_at").asString()), Instant.parse(row.get("next_attempt_at")
                .asString()))).isEqualTo(Duration.ofSeconds(1));
        assertThat(receiver.callbacks("/redirected")).isEmpty();
    }

    @Test
    void deletingAWebhookStopsNewAttempts() {
        receiver.answer("/deleted", 500);
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", receiver.url("/deleted"))))).at("/data/task_id").asString();
        String webhook = listWebhooks(task).at("/0/webhook_id").asString();
        receiver.await("/deleted", 1);
        body(owner.delete("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}", agent, task, webhook).exchange(), 200);
        assertThat(listWebhooks(task)).isEmpty();
        JsonNode rows = PlatformClient.await(() -> deliveries(task, webhook, ""), found -> found.size() >= 1 && allStopped(found),
                "stopped rows");
        rows.forEach(row -> {
            assertThat(row.get("status").asString()).isEqualTo("failed");
            assertThat(row.get("next_attempt_at").isNull()).isTrue();
            assertThat(row.get("last_error").asString()).contains("deleted");
        });
        int seen = receiver.callbacks("/deleted").size();
        int fannedOut = fannedOut(webhook);
        // a witness registered after the deletion: the fan-out handles a task's events in order, so once the witness
        // has its "completed", every delivery the new transitions made exists (the stopped row's end is DeliverySagaTest's)
        body(register(task, Map.of("url", receiver.url("/witness"))), 201);
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "more")).exchange(), 202);
        assertThat(receiver.await("/witness", 3)).extracting(callback -> payload(callback).get("status").asString())
                .containsExactly("queued", "running", "completed");
        assertThat(fannedOut(webhook)).as("deliveries made for the deleted webhook").isEqualTo(fannedOut);
        assertThat(receiver.callbacks("/deleted")).hasSize(seen);
        assertError(owner.delete("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}", agent, task, webhook).exchange(), 404, "not_found", "");
    }

    @Test
    void aWebhookOnAnInternalAddressIsRefusedAtDispatch() {
        String task = owner.task(agent, Map.of("message", "x\n/echo then=input", "webhooks", List.of(
                Map.of("url", "http://10.255.255.1:8080/hook"),
                Map.of("url", "http://127.0.0.2:" + receiver.port() + "/hook")))).at("/data/task_id").asString();
        JsonNode webhooks = listWebhooks(task);
        assertThat(webhooks).hasSize(2);
        for (JsonNode webhook : webhooks) {
            JsonNode row = oldestFailed(task, webhook.get("webhook_id").asString());
            assertThat(row.get("last_error").asString()).contains("internal address");
            assertThat(row.get("last_response_status").asInt()).isZero();
        }
        assertThat(receiver.callbacks("/hook")).isEmpty();
    }

    /** The first delivery of the webhook (the task's first transition), once it has failed. */
    private JsonNode oldestFailed(String task, String webhook) {
        JsonNode rows = PlatformClient.await(() -> deliveries(task, webhook, ""), found -> found.size() >= 1
                && "failed".equals(found.get(found.size() - 1).get("status").asString()), "a failed first delivery");
        return rows.get(rows.size() - 1);
    }

    private static boolean allStopped(JsonNode rows) {
        for (JsonNode row : rows) {
            if (!"failed".equals(row.get("status").asString()) || !row.get("next_attempt_at").isNull()) {
                return false;
            }
        }
        return true;
    }

    private WebTestClient.ResponseSpec register(String task, Map<String, ?> body) {
        return owner.post("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange();
    }

    private WebTestClient.ResponseSpec redeliver(String task, String webhook, String delivery) {
        return owner.post("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries/{d}/redeliver", agent, task, webhook, delivery).exchange();
    }

    private JsonNode listWebhooks(String task) {
        return body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200).at("/data/webhooks");
    }

    private JsonNode deliveries(String task, String webhook, String query) {
        return body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries" + query, agent, task, webhook).exchange(), 200)
                .at("/data/deliveries");
    }

    private JsonNode delivery(String task, String webhook, String delivery) {
        for (JsonNode row : deliveries(task, webhook, "?limit=200")) {
            if (row.get("delivery_id").asString().equals(delivery)) {
                return row;
            }
        }
        throw new AssertionError("no delivery " + delivery);
    }

    private static JsonNode payload(Callback callback) {
        return JSON.readTree(callback.body());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    /** How many task transitions the fan-out made a delivery of for the webhook (committed with the deliveries). */
    private int fannedOut(String webhook) {
        return jdbc().queryForObject("SELECT count(*) FROM webhook_fanout WHERE webhook_id = ?::uuid", Integer.class, webhook);
    }
}
