package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service on its embedded PostgreSQL, as an operator runs it, tells the truth about its database and looks after it:
 * with the database frozen, health and readiness answer DOWN with 503 within two seconds; with its postmaster killed,
 * the service starts it again by itself and serves within 30 seconds, saying so in health; and when the service is
 * killed with SIGKILL, its PostgreSQL ends with it.
 */
class SupervisedDatabaseTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration ANSWER = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(30);

    @TempDir
    Path home;

    @Test
    void healthAnswersInTimeWhileTheDatabaseIsFrozenAndTheServiceRestartsAKilledOne() throws Exception {
        Path dataDir = home.resolve("node");
        // durable, as the service runs by default: what was accepted before the database is killed is still there after
        try (ServiceProcess service = ServiceProcess.start("supervised", dataDir, "--agent-platform.control.real-x=false")) {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            PlatformClient owner = service.client(service.firstKey());
            String agent = owner.createAgent(owner.runningInstance("linux"), "steady");
            long postmaster = postmasterPid(dataDir);

            List<Long> frozen = serverProcesses(postmaster);
            signal("STOP", frozen);
            try {
                for (String path : List.of("/actuator/health/readiness", "/actuator/health")) {
                    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                            .timeout(ANSWER).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(answer.statusCode()).as(path).isEqualTo(503);
                    assertThat(JSON.readTree(answer.body()).at("/components/db/status").asString()).as(path).isEqualTo("DOWN");
                }
            } finally {
                signal("CONT", frozen);
            }

            ProcessHandle.of(postmaster).orElseThrow().destroyForcibly();
            JsonNode ready = PlatformClient.await(() -> readiness(client, service), health -> health != null
                    && "UP".equals(health.get("status").asString()) && health.at("/components/db/details/restarts").asInt() == 1,
                    "readiness UP again after a restart of the database", RECOVERY);
            assertThat(ready.at("/components/db/details/last_exit").asString()).contains("exited");
            assertThat(postmasterPid(dataDir)).isNotEqualTo(postmaster);
            String task = owner.task(agent, "after the restart");
            assertThat(owner.awaitTask(agent, task, "completed").get("text").asString()).isEqualTo("echo: after the restart");
            assertThat(Files.readString(service.log())).contains("embedded PostgreSQL died; starting it again");

            long restarted = postmasterPid(dataDir);
            service.kill();
            PlatformClient.await(() -> ProcessHandle.of(restarted).map(ProcessHandle::isAlive).orElse(false), alive -> !alive,
                    "the killed service's PostgreSQL ended", RECOVERY);
        }
    }

    private static long postmasterPid(Path dataDir) throws IOException {
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid")).getFirst().strip());
    }

    /** The postmaster and every process it runs (the backends that hold the service's connections). */
    private static List<Long> serverProcesses(long postmaster) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(postmaster),
                ProcessHandle.of(postmaster).orElseThrow().children().map(ProcessHandle::pid)).toList();
    }

    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("kill", "-s", signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).isZero();
    }

    private static JsonNode readiness(HttpClient client, ServiceProcess service) {
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/actuator/health/readiness"))
                    .timeout(ANSWER).build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(answer.body());
        } catch (IOException notAnswering) {
            return null;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
