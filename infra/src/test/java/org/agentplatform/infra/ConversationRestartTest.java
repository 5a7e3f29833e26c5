package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.agentplatform.infra.support.PlatformClient.data;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.JsonNode;

/**
 * A conversation across a restart of the service: its stream resumed with its last id loses and repeats nothing,
 * a turn that was streaming when the service stopped runs again (its chunks written once) and completes, the
 * message that waited behind it follows, and the conversation goes on: a hanging turn is canceled, it closes, a
 * further message is refused and the stream ends with done.
 */
class ConversationRestartTest {

    @TempDir
    Path dataDir;

    @Test
    void aConversationAndItsInterruptedTurnSurviveARestart() {
        String agent;
        String conversation;
        List<ServerSentEvent<String>> firstPart;
        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            agent = platform.createAgent(platform.runningInstance("linux"), "durable talker");
            conversation = platform.conversation(agent);
            platform.say(agent, conversation, "before the restart");
            platform.awaitTurn(agent, conversation, 1, "completed");
            firstPart = platform.conversationEvents(agent, conversation, null, finalStatusOfTurn(1));
            platform.say(agent, conversation, "interrupted\n/echo deltas=5 take_ms=4000");
            platform.say(agent, conversation, "waiting behind it\n/echo history");
            PlatformClient.await(() -> deltasOfTurn(platform, agent, conversation, 2).size(), written -> written >= 1, "a first delta");
        }

        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            List<ServerSentEvent<String>> rest = platform.conversationEvents(agent, conversation, firstPart.getLast().id(),
                    finalStatusOfTurn(3));
            List<String> resumed = new ArrayList<>(ids(firstPart));
            resumed.addAll(ids(rest));
            assertThat(resumed).isEqualTo(ids(platform.conversationEvents(agent, conversation, null, finalStatusOfTurn(3))))
                    .doesNotHaveDuplicates();
            assertThat(rest.stream().filter(event -> "agent_message".equals(event.event())).map(event -> data(event).get("text").asString()))
                    .containsExactly("echo: interrupted",
                            "echo: waiting behind it (2 earlier turns: \"before the restart\", \"interrupted\")");
            List<String> deltas = deltasOfTurn(platform, agent, conversation, 2);
            assertThat(deltas).hasSize(5);
            assertThat(String.join("", deltas)).isEqualTo("echo: interrupted");

            platform.say(agent, conversation, "after the restart");
            assertThat(platform.awaitTurn(agent, conversation, 4, "completed").get("text").asString()).isEqualTo("echo: after the restart");
            platform.say(agent, conversation, "never answered\n/echo then=hang");
            platform.awaitTurn(agent, conversation, 5, "running");
            body(platform.post("/api/v1/agents/{a}/conversations/{c}/cancel", agent, conversation).exchange(), 200);
            platform.awaitTurn(agent, conversation, 5, "canceled");
            body(platform.post("/api/v1/agents/{a}/conversations/{c}/close", agent, conversation).exchange(), 200);
            List<ServerSentEvent<String>> ending = platform.conversationEvents(agent, conversation, rest.getLast().id(),
                    event -> "done".equals(event.event()));
            assertThat(ending).extracting(ServerSentEvent::event).endsWith("conversation_status", "done");
            assertThat(body(platform.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "too late")).exchange(), 409)).isNotNull();
        }
    }

    private static List<String> deltasOfTurn(PlatformClient platform, String agent, String conversation, int turn) {
        List<String> deltas = new ArrayList<>();
        platform.conversationLog(agent, conversation, true).get("messages").forEach(entry -> {
            if ("agent_reply_delta".equals(entry.get("kind").asString()) && entry.get("turn").asInt() == turn) {
                deltas.add(entry.get("text").asString());
            }
        });
        return deltas;
    }

    private static Predicate<ServerSentEvent<String>> finalStatusOfTurn(int turn) {
        return event -> {
            JsonNode data = data(event);
            return "turn_status".equals(event.event()) && data.get("turn").asInt() == turn && data.get("final").asBoolean();
        };
    }

    private static List<String> ids(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::id).filter(id -> id != null).toList();
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, "--agent-platform.embedded-postgres.durable=false",
                "--agent-platform.operations.sweep-interval=1s", "--agent-platform.tasks.turn-takeover=2s");
    }

    private PlatformClient client(ConfigurableApplicationContext service) {
        return StandaloneService.client(service, dataDir);
    }
}
