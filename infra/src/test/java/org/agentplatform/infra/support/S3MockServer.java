package org.agentplatform.infra.support;

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
import java.util.concurrent.TimeUnit;
import org.springframework.util.FileSystemUtils;

/**
 * A real S3-compatible server for the S3 adapter's tests: Adobe's S3Mock (from Maven Central, copied to
 * {@code target/s3mock} by the build), run as its own process with bucket {@value #BUCKET}, stopped with the JVM.
 */
public final class S3MockServer {

    public static final String BUCKET = "files";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static S3MockServer instance;

    private final Process process;
    private final int port;

    private S3MockServer() throws IOException, InterruptedException {
        Path jar = Path.of("target", "s3mock", "s3mock.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No S3Mock at " + jar + "; the build copies it there (mvn process-test-resources)");
        }
        port = FreePort.pick();
        Path root = Files.createTempDirectory("s3mock-");
        String java = ProcessHandle.current().info().command().orElse("java");
        process = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                "--server.port=0",
                "--server.address=127.0.0.1",
                "--com.adobe.testing.s3mock.http-port=" + port,
                "--com.adobe.testing.s3mock.store.initial-buckets=" + BUCKET,
                "--com.adobe.testing.s3mock.store.root=" + root,
                "--spring.main.banner-mode=off",
                "--logging.level.root=warn")
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("s3mock.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndRemove(root)));
        awaitReady(root.resolve("s3mock.log"));
    }

    /** At the JVM's end: the server stopped, then its store and log removed. */
    private void stopAndRemove(Path root) {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
            FileSystemUtils.deleteRecursively(root);
        } catch (IOException | InterruptedException leftBehind) {
            // a temporary directory the system cleans up eventually
        }
    }

    public static synchronized S3MockServer get() {
        if (instance == null) {
            try {
                instance = new S3MockServer();
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
        }
        return instance;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady(Path log) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Instant giveUp = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(giveUp)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Mock exited: " + Files.readString(log));
            }
            try {
                HttpResponse<Void> bucket = client.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + BUCKET)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                if (bucket.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            // another process with no readiness signal but its answer: ask again shortly (no timing is proven)
            Thread.sleep(200);
        }
        process.destroy();
        throw new IllegalStateException("S3Mock did not start within " + START_TIMEOUT + ": " + Files.readString(log));
    }
}
