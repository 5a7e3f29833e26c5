package org.agentplatform.infra.replay;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.cli.ProjectionsCommand;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code projections status} and {@code projections rebuild all} on a store with every resource type (an instance, an
 * agent and its operations, a task with a webhook and its deliveries, a conversation), written by a real service that
 * then stopped: every read model rebuilt from the events equals the one the processors kept, and the service reads
 * the same after it starts again on the rebuilt tables.
 */
class ProjectionsRebuildTest {

    @TempDir
    Path dataDir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void everyReadModelRebuiltFromTheStoreEqualsTheLiveOne() {
        String agent;
        String task;
        JsonNode before;
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.answer("/hook", 200);
            try (ConfigurableApplicationContext service = start()) {
                PlatformClient platform = StandaloneService.client(service, dataDir);
                String instance = platform.runningInstance("linux");
                agent = platform.createAgent(instance, "rebuilt");
                task = platform.task(agent, Map.of("message", "rebuild me",
                        "webhooks", List.of(Map.of("url", receiver.url("/hook"), "secret", "whsec-0123456789abcdef"))))
                        .at("/data/task_id").asString();
                platform.awaitTask(agent, task, "completed");
                String conversation = platform.conversation(agent);
                platform.say(agent, conversation, "hello");
                platform.awaitTurn(agent, conversation, 1, "completed");
                String webhook = body(platform.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200)
                        .at("/data/webhooks/0/webhook_id").asString();
                PlatformClient.await(() -> body(platform.get("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries", agent, task, webhook)
                        .exchange(), 200).at("/data/deliveries"), rows -> rows.size() >= 3
                        && rows.valueStream().allMatch(row -> "succeeded".equals(row.get("status").asString())), "three delivered callbacks");
                PlatformClient.await(this::caughtUp, caughtUp -> caughtUp, "every processor at the store's head, nothing parked");
                before = platform.taskView(agent, task);
            }
        }

        assertThat(run("status")).as(output()).isZero();
        assertThat(output()).contains("task-projection").contains("audit-chain").contains("no parked events");
        out.reset();
        assertThat(run("rebuild", "all")).as(output()).isZero();
        for (String table : List.of("task_view", "channel_message", "conversation_view", "operation_view", "operation_event",
                "webhook_view", "delivery_view", "agent_view", "agent_skill_view", "instance_view")) {
            assertThat(output()).containsPattern(table + " +[0-9,]+ rows  equal to the live table");
        }
        assertThat(output()).doesNotContain("DIFFERS").contains("events/s");

        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = StandaloneService.client(service, dataDir);
            assertThat(platform.taskView(agent, task)).isEqualTo(before);
        }
    }

    /** Whether {@code projections status} shows every segment with no lag and nothing parked. */
    private boolean caughtUp() {
        out.reset();
        int code = ProjectionsCommand.run(new String[] {"status", "--agent-platform.data-dir=" + dataDir}, print(), print());
        List<String> segments = output().lines().filter(line -> line.matches("^[a-z-]+ +\\d+ .*")).toList();
        return code == 0 && !segments.isEmpty() && segments.stream().allMatch(line -> line.trim().split(" +")[3].equals("0"));
    }

    private int run(String... args) {
        String[] withSettings = java.util.Arrays.copyOf(args, args.length + 1);
        withSettings[args.length] = "--agent-platform.data-dir=" + dataDir;
        return ProjectionsCommand.run(withSettings, print(), print());
    }

    private PrintStream print() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir,
                "--agent-platform.embedded-postgres.durable=false",
                "--agent-platform.webhooks.allowed-networks=127.0.0.1/32");
    }
}
