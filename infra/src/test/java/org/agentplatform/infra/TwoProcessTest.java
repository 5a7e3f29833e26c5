package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.agentplatform.infra.support.PlatformClient.data;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.ServiceProcess;
import org.agentplatform.infra.support.WebhookReceiver.Callback;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two service processes on one PostgreSQL (the test's own, stopped at its end), as an operator runs them behind a load balancer: work
 * started on one node is streamed from the other, webhooks reach a real receiver once per transition, a key's quota
 * is one budget for both nodes, and when node A dies by SIGKILL in the middle of running turns and pending retries,
 * node B finishes every task and makes every retry, losing nothing, doubling nothing and keeping each task's transitions in order.
 */
class TwoProcessTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SECRET = "whsec-two-processes-0123456789";
    /** Axon's segment claims expire after 10 s, turns are taken over after 4 s of silence: a minute is plenty. */
    private static final Duration TAKEOVER_PATIENCE = Duration.ofSeconds(90);

    @TempDir
    Path home;

    @Test
    void twoNodesShareTheWorkAndTheSurvivorFinishesWhatTheKilledNodeHeld() throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start(home.resolve("postgres"), new EmbeddedPostgres.Options(
                Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres"), 0, false, 200, Duration.ofSeconds(60)))) {
            runTwoNodes(postgres.endpoint(), Base64.getEncoder().encodeToString(key));
        }
    }

    private void runTwoNodes(DatabaseEndpoint database, String vaultKey) throws IOException {
        String[] shared = {
                "--agent-platform.database.url=" + database.jdbcUrl(),
                "--agent-platform.database.user=" + database.user(),
                "--agent-platform.database.password=" + database.password(),
                "--agent-platform.secrets.key=" + vaultKey,
                "--agent-platform.operations.sweep-interval=1s",
                "--agent-platform.tasks.turn-takeover=4s",
                "--agent-platform.webhooks.retry-delays=2s,2s,2s,2s,2s",
                "--agent-platform.webhooks.allowed-networks=127.0.0.1/32",
                "--agent-platform.control.real-x=false"};
        try (WebhookReceiver receiver = new WebhookReceiver();
             ServiceProcess nodeA = ServiceProcess.start("A", home.resolve("a"), shared);
             ServiceProcess nodeB = ServiceProcess.start("B", home.resolve("b"), shared)) {
            PlatformClient viaA = nodeA.client(nodeA.firstKey());
            PlatformClient viaB = nodeB.client(nodeA.firstKey());
            String agent = viaA.createAgent(viaA.runningInstance("linux"), "two-processes");

            // created on A, streamed from B; every transition reaches the receiver once
            List<String> steady = IntStream.range(0, 4)
                    .mapToObj(index -> createTask(viaA, agent, "steady " + index + "\n/echo deltas=3 take_ms=300", receiver.url("/steady")))
                    .toList();
            for (String task : steady) {
                List<ServerSentEvent<String>> frames = viaB.taskEvents(agent, task, null, Integer.MAX_VALUE);
                assertThat(frames.getLast().event()).isEqualTo("done");
                assertThat(statuses(frames)).containsSubsequence("running", "completed");
                assertThat(replyText(frames)).isEqualTo("echo: steady " + steady.indexOf(task));
            }
            Map<String, Long> steadyCallbacks = PlatformClient.await(() -> perTransition(receiver.callbacks("/steady")),
                    counts -> counts.size() == steady.size() * 3, "every transition of the steady tasks delivered");
            assertThat(steadyCallbacks.values()).as("deliveries per transition").containsOnly(1L);

            // one key, one budget: 10 a minute across both nodes together
            String limited = body(viaA.post("/api/v1/api-keys").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "shared quota", "rate_limit_per_minute", 10)).exchange(), 201).at("/data/key").asString();
            List<Integer> answers = new ArrayList<>();
            for (int index = 0; index < 16; index++) {
                PlatformClient via = (index % 2 == 0 ? nodeA : nodeB).client(limited);
                answers.add(via.get("/api/v1/providers").exchange().returnResult(String.class).getStatus().value());
            }
            assertThat(answers.stream().filter(status -> status == 200)).hasSize(10);
            assertThat(answers.stream().filter(status -> status == 429)).hasSize(6);

            // A dies (SIGKILL) while it runs turns and its deliveries wait for retries; B finishes everything
            receiver.answer("/flaky", 500);
            List<String> crashed = IntStream.range(0, 6)
                    .mapToObj(index -> createTask(viaA, agent, "crash " + index + "\n/echo deltas=4 take_ms=12000", receiver.url("/flaky")))
                    .toList();
            for (String task : crashed) {
                viaB.awaitTask(agent, task, "running");
            }
            // a webhook's deliveries go one after the other: while the first fails, the later transitions wait for it
            PlatformClient.await(() -> receiver.callbacks("/flaky").stream().filter(callback -> callback.answered() == 500)
                    .map(TwoProcessTest::transition).distinct().count(), count -> count >= crashed.size(), "a failed first attempt of every queued transition");
            nodeA.kill();
            receiver.answer("/flaky", 200);

            for (String task : crashed) {
                JsonNode done = PlatformClient.await(() -> viaB.taskView(agent, task), view -> "completed".equals(view.get("status").asString()),
                        "task " + task + " completed on B", TAKEOVER_PATIENCE);
                assertThat(done.get("text").asString()).isEqualTo("echo: crash " + crashed.indexOf(task));
                List<ServerSentEvent<String>> frames = viaB.taskEvents(agent, task, null, Integer.MAX_VALUE);
                assertThat(replyText(frames)).as("the reply streamed once, whichever node ran it").isEqualTo("echo: crash " + crashed.indexOf(task));
            }
            Map<String, Long> delivered = PlatformClient.await(
                    () -> perTransition(receiver.callbacks("/flaky").stream().filter(callback -> callback.answered() == 200).toList()),
                    counts -> counts.size() == crashed.size() * 3, "every transition of the crashed tasks delivered", TAKEOVER_PATIENCE);
            assertThat(delivered.values()).as("successful deliveries per transition").containsOnly(1L);
            for (String task : crashed) {
                assertThat(receiver.callbacks("/flaky").stream().filter(callback -> callback.answered() == 200)
                        .map(TwoProcessTest::transition).filter(transition -> transition.startsWith(task)).toList())
                        .as("the transitions of %s in order, across the death of a node", task)
                        .containsExactly(task + " queued", task + " running", task + " completed");
            }
            assertThat(Files.readString(nodeB.log())).as("B ran A's turns").contains("taking over a turn whose node went silent");
        }
    }

    private static String createTask(PlatformClient via, String agent, String message, String webhook) {
        return via.task(agent, Map.of("message", message, "webhooks", List.of(Map.of("url", webhook, "secret", SECRET))))
                .at("/data/task_id").asString();
    }

    /** How many callbacks each (task, status) got. */
    private static Map<String, Long> perTransition(List<Callback> callbacks) {
        return callbacks.stream().collect(Collectors.groupingBy(TwoProcessTest::transition, Collectors.counting()));
    }

    private static String transition(Callback callback) {
        JsonNode payload = JSON.readTree(callback.body());
        return payload.get("task_id").asString() + " " + payload.get("status").asString();
    }

    private static List<String> statuses(List<ServerSentEvent<String>> frames) {
        return frames.stream().filter(frame -> "task_status".equals(frame.event())).map(frame -> data(frame).get("status").asString()).toList();
    }

    private static String replyText(List<ServerSentEvent<String>> frames) {
        return frames.stream().filter(frame -> "agent_reply_delta".equals(frame.event()))
                .map(frame -> data(frame).get("text").asString()).collect(Collectors.joining());
    }
}
