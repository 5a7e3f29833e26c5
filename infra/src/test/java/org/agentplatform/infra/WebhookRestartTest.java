package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A retry scheduled before the service stops is made after it starts again, on time (the deadline is
 * persistent), exactly once: the receiver sees each attempt of a delivery once, the row counts them alike.
 */
class WebhookRestartTest {

    @TempDir
    Path dataDir;

    @Test
    void aRetryScheduledBeforeAStopIsMadeAfterTheRestartOnceAndOnTime() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.answer("/down", 500);
            Hooked hooked;
            String first;
            Instant dueAt;
            try (ConfigurableApplicationContext service = start("1s")) {
                PlatformClient platform = StandaloneService.client(service, dataDir);
                hooked = hooked(platform, receiver.url("/down"));
                JsonNode failed = PlatformClient.await(() -> oldest(platform, hooked),
                        row -> row != null && "failed".equals(row.get("status").asString()), "a first failed attempt");
                first = failed.get("delivery_id").asString();
                dueAt = Instant.parse(failed.get("next_attempt_at").asString());
                assertThat(failed.get("attempt_num").asInt()).isEqualTo(1);
            }
            long queuedCallbacks = queued(receiver, "/down");
            assertThat(queuedCallbacks).isEqualTo(1);

            // no sweep runs after the restart: only the stored deadline can make the retries due
            try (ConfigurableApplicationContext service = start("1h")) {
                PlatformClient platform = StandaloneService.client(service, dataDir);
                JsonNode retried = PlatformClient.await(() -> oldest(platform, hooked),
                        row -> row.get("attempt_num").asInt() >= 3, "two retries after the restart");
                assertThat(retried.get("delivery_id").asString()).isEqualTo(first);
                assertThat(Instant.parse(retried.get("last_attempted_at").asString())).isAfterOrEqualTo(dueAt.plusSeconds(4));
                assertThat(queued(receiver, "/down")).isEqualTo(retried.get("attempt_num").asLong());
                List<WebhookReceiver.Callback> attempts = receiver.callbacks("/down").stream()
                        .filter(callback -> callback.text().contains("\"queued\"")).toList();
                assertThat(attempts.get(1).body()).isEqualTo(attempts.get(0).body());
                // the deadline stored before the stop made each retry due (the audit trail shows them once its processor got there)
                List<String> madeDueBy = PlatformClient.await(() -> {
                    List<String> actors = new ArrayList<>();
                    body(platform.get("/api/v1/audit/events?resource_type=delivery&resource_id={d}", first).exchange(), 200)
                            .at("/data/events").forEach(event -> {
                                if (event.get("type").asString().equals("DeliveryRetryDue")) {
                                    actors.add(event.get("actor").asString());
                                }
                            });
                    return actors;
                }, actors -> actors.size() >= 2, "both retries made due in the audit trail");
                assertThat(madeDueBy).doesNotContain("system:webhook-sweeper");
            }
        }
    }

    /**
     * An attempt under way when the service stops (the receiver holds it unanswered) is recorded as started before it
     * left: after the restart it counts as failed with its outcome unknown, and the next attempt is the next number. The
     * receiver gets exactly as many POSTs as the row counts attempts, never the same attempt twice (so never a seventh).
     */
    @Test
    void anAttemptCutOffByAStopCountsAndIsNeverSentAgain() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.hold("/cut");
            Hooked hooked;
            try (ConfigurableApplicationContext service = start("1s", "30s")) {
                hooked = hooked(StandaloneService.client(service, dataDir), receiver.url("/cut"));
                receiver.await("/cut", 1);
            }
            receiver.answer("/cut", 500);
            receiver.release("/cut");
            try (ConfigurableApplicationContext service = start("1s", "1s")) {
                PlatformClient platform = StandaloneService.client(service, dataDir);
                JsonNode retried = PlatformClient.await(() -> oldest(platform, hooked),
                        row -> row != null && row.get("attempt_num").asInt() >= 2, "the cut attempt counted and the next one made");
                assertThat(queued(receiver, "/cut")).as("POSTs received for the row's attempts").isEqualTo(retried.get("attempt_num").asLong());
                // the audit trail follows the store on its own processor: it shows the second attempt when it has got there
                List<String> types = PlatformClient.await(() -> {
                    List<String> read = new ArrayList<>();
                    body(platform.get("/api/v1/audit/events?resource_type=delivery&resource_id={d}", retried.get("delivery_id").asString())
                            .exchange(), 200).at("/data/events").forEach(event -> read.add(event.get("type").asString()));
                    return read;
                }, read -> read.size() >= 5, "the delivery's history through its second attempt");
                assertThat(types).startsWith("DeliveryCreated", "DeliveryAttemptStarted", "DeliveryFailed", "DeliveryRetryDue",
                        "DeliveryAttemptStarted");
            }
        }
    }

    /** A task waiting for input with one signed webhook to {@code url}: the first delivery is its {@code queued}. */
    private record Hooked(String agent, String task, String webhook) {
    }

    private static Hooked hooked(PlatformClient platform, String url) {
        String agent = platform.createAgent(platform.runningInstance("linux"), "notifier");
        String task = platform.task(agent, Map.of("message", "x\n/echo then=input",
                "webhooks", List.of(Map.of("url", url, "secret", "whsec-0123456789abcdef")))).at("/data/task_id").asString();
        String webhook = body(platform.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200)
                .at("/data/webhooks/0/webhook_id").asString();
        return new Hooked(agent, task, webhook);
    }

    /** The callbacks of the {@code queued} transition {@code path} received: the first delivery's attempts. */
    private static long queued(WebhookReceiver receiver, String path) {
        return receiver.callbacks(path).stream().filter(callback -> callback.text().contains("\"queued\"")).count();
    }

    private static JsonNode oldest(PlatformClient platform, Hooked hooked) {
        JsonNode rows = body(platform.get("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries", hooked.agent(), hooked.task(),
                        hooked.webhook()).exchange(), 200)
                .at("/data/deliveries");
        return rows.isEmpty() ? null : rows.get(rows.size() - 1);
    }

    private ConfigurableApplicationContext start(String sweepInterval) {
        return start(sweepInterval, "10s");
    }

    private ConfigurableApplicationContext start(String sweepInterval, String attemptTimeout) {
        return StandaloneService.start(dataDir,
                "--agent-platform.embedded-postgres.durable=false",
                "--agent-platform.operations.sweep-interval=" + sweepInterval,
                "--agent-platform.webhooks.retry-delays=4s,4s,4s,4s,4s",
                "--agent-platform.webhooks.attempt-timeout=" + attemptTimeout,
                "--agent-platform.webhooks.allowed-networks=127.0.0.1/32");
    }
}
