package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.body;
import static org.agentplatform.infra.support.PlatformClient.data;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The tasks walk-through across a restart of the service: a stream resumed with its last id loses and
 * repeats nothing, a task waiting for input can be continued, a turn that was running when the service
 * stopped is run again (its chunks written once) and completes, uploaded files are still there.
 */
class TaskRestartTest {

    private static final byte[] FILE = "kept across restarts".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dataDir;

    @Test
    void tasksTheirStreamsAndFilesSurviveARestart() throws Exception {
        String agent;
        String done;
        String waiting;
        String inFlight;
        String file;
        List<ServerSentEvent<String>> firstPart;
        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            String instance = platform.runningInstance("linux");
            agent = platform.createAgent(instance, "durable");
            done = platform.task(agent, "before the restart\n/echo deltas=3");
            platform.awaitTask(agent, done, "completed");
            firstPart = platform.taskEvents(agent, done, null, 4);
            waiting = platform.task(agent, "which one?\n/echo then=input");
            platform.awaitTask(agent, waiting, "input_required");
            inFlight = platform.task(agent, "interrupted\n/echo deltas=5 take_ms=4000");
            PlatformClient.await(() -> deltas(platform, agent, inFlight).size(), written -> written >= 1, "a first delta");
            JsonNode ticket = body(platform.post("/api/v1/files/presign-upload").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("contentType", "text/plain", "contentLengthBytes", FILE.length)).exchange(), 201).get("data");
            file = ticket.get("file_id").asString();
            body(WebTestClient.bindToServer().build().put().uri(URI.create(ticket.get("upload_url").asString()))
                    .contentType(MediaType.TEXT_PLAIN).bodyValue(FILE).exchange(), 200);
        }

        try (ConfigurableApplicationContext service = start()) {
            PlatformClient platform = client(service);
            List<ServerSentEvent<String>> rest = platform.taskEvents(agent, done, firstPart.getLast().id(), 100);
            List<String> resumed = new ArrayList<>(ids(firstPart));
            resumed.addAll(ids(rest));
            assertThat(resumed).isEqualTo(ids(platform.taskEvents(agent, done, null, 100))).doesNotHaveDuplicates();
            assertThat(data(rest.getLast()).get("text").asString()).isEqualTo("echo: before the restart");

            body(platform.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, waiting).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("message", "the second")).exchange(), 202);
            assertThat(platform.awaitTask(agent, waiting, "completed").get("text").asString()).isEqualTo("echo: the second");

            JsonNode recovered = platform.awaitTask(agent, inFlight, "completed");
            assertThat(recovered.get("text").asString()).isEqualTo("echo: interrupted");
            List<String> deltas = deltas(platform, agent, inFlight);
            assertThat(deltas).hasSize(5);
            assertThat(String.join("", deltas)).isEqualTo("echo: interrupted");

            assertThat(body(platform.get("/api/v1/tasks").exchange(), 200).at("/data/tasks").findValuesAsString("task_id"))
                    .contains(done, waiting, inFlight);
            String url = body(platform.get("/api/v1/files/presign-download?file_id={f}", file).exchange(), 200)
                    .at("/data/download_url").asString();
            assertThat(WebTestClient.bindToServer().build().get().uri(URI.create(url)).exchange().expectStatus().isOk()
                    .expectBody().returnResult().getResponseBody()).isEqualTo(FILE);
        }
    }

    private static List<String> deltas(PlatformClient platform, String agent, String task) {
        JsonNode log = body(platform.get("/api/v1/agents/{a}/tasks/{t}/messages?include_deltas=true", agent, task).exchange(), 200)
                .at("/data/messages");
        List<String> deltas = new ArrayList<>();
        log.forEach(entry -> {
            if ("agent_reply_delta".equals(entry.get("kind").asString())) {
                deltas.add(entry.get("text").asString());
            }
        });
        return deltas;
    }

    private static List<String> ids(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::id).filter(id -> id != null).toList();
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, "--agent-platform.embedded-postgres.durable=false", "--agent-platform.operations.sweep-interval=1s", "--agent-platform.tasks.turn-takeover=2s");
    }

    private PlatformClient client(ConfigurableApplicationContext service) {
        return StandaloneService.client(service, dataDir);
    }
}
