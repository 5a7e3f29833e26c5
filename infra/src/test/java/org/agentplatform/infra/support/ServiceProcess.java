package org.agentplatform.infra.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agentplatform.infra.AgentPlatformApplication;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The service as an operating-system process of its own (its main on this test's class path), so a test can run
 * several nodes and kill one with SIGKILL. Its output goes to {@code <dataDir>/service.log}.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration START_PATIENCE = Duration.ofMinutes(3);

    private final String name;
    private final Path dataDir;
    private final int port;
    private final Process process;

    private ServiceProcess(String name, Path dataDir, int port, Process process) {
        this.name = name;
        this.dataDir = dataDir;
        this.port = port;
        this.process = process;
    }

    /** Starts a node and waits until it answers ready. */
    public static ServiceProcess start(String name, Path dataDir, String... settings) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Daxoniq.update-checker.disabled=true",
                "-cp", System.getProperty("java.class.path"), AgentPlatformApplication.class.getName()));
        return launch(name, dataDir, command, Map.of(), settings);
    }

    /**
     * Starts the service as an operator does, through a start script ({@code bin/agent-platform}: the packaged jar), with
     * these further environment variables, and waits until it answers ready.
     */
    public static ServiceProcess startScript(String name, Path script, Path dataDir, Map<String, String> environment, String... settings) {
        return launch(name, dataDir, List.of("bash", script.toString()), environment, settings);
    }

    private static ServiceProcess launch(String name, Path dataDir, List<String> start, Map<String, String> environment, String... settings) {
        try {
            Files.createDirectories(dataDir);
            int port = FreePort.pick();
            List<String> command = new ArrayList<>(start);
            command.addAll(List.of("--server.port=" + port, "--agent-platform.data-dir=" + dataDir, "--logging.structured.format.console="));
            command.addAll(List.of(settings));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dataDir.resolve("service.log").toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            // a test JVM that dies before the test closes its nodes takes them along
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(process::destroyForcibly));
            ServiceProcess service = new ServiceProcess(name, dataDir, port, process);
            try {
                service.awaitReady();
            } catch (RuntimeException | AssertionError notReady) {
                service.kill();
                throw notReady;
            }
            return service;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private void awaitReady() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readiness = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health/readiness")).timeout(Duration.ofSeconds(5)).build();
        Instant deadline = Instant.now().plus(START_PATIENCE);
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("node " + name + " exited while starting; the end of its log (" + log() + "):"
                        + System.lineSeparator() + logTail());
            }
            assertThat(Instant.now()).as("node %s ready; see %s", name, log()).isBefore(deadline);
            try {
                if (client.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
            // a process of its own whose only signal is its readiness answer: ask again shortly (no timing is proven)
            sleep(Duration.ofMillis(250));
        }
    }

    /** The last lines of the node's log: a test's temporary directory, and the log with it, is gone once it failed. */
    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log());
            return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException unreadable) {
            return "(unreadable: " + unreadable.getMessage() + ")";
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Path log() {
        return dataDir.resolve("service.log");
    }

    /** A client of this node with {@code token} (another node's first key works on every node of its database). */
    public PlatformClient client(String token) {
        return new PlatformClient(WebTestClient.bindToServer().filter(OpenApiResponses.validating()).baseUrl(baseUrl()).responseTimeout(Duration.ofSeconds(30)).build(), token);
    }

    /** The key the first start wrote, when this node was the one that made the first owner. */
    public String firstKey() {
        try {
            return Files.readString(dataDir.resolve(FirstStart.KEY_FILE)).strip();
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** SIGKILL: the node dies at once, releasing nothing. */
    public void kill() {
        process.destroyForcibly();
        waitFor();
    }

    /** SIGTERM and wait for the graceful stop. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            waitFor();
        }
    }

    private void waitFor() {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupted) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
