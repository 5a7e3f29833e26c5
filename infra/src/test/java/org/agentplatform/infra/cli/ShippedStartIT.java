package org.agentplatform.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.agentplatform.infra.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged service started as the README says ({@code bin/agent-platform}, after the package command made the jar and
 * its ahead-of-time cache) opens the build's cache, in the JVM's own words, and serves. Run by failsafe after the cache's
 * training run (the {@code aot-cache} profile of a JDK that makes one), on its own embedded PostgreSQL.
 */
class ShippedStartIT {

    @Test
    void theStartScriptOpensTheBuildsCacheAndTheServiceIsReady(@TempDir Path dataDir) throws IOException, InterruptedException {
        Path root = Path.of("").toAbsolutePath().getParent();
        assertThat(root.resolve("infra/target/agent-platform/agent-platform.aot")).as("the package command's cache").isRegularFile();

        try (ServiceProcess service = ServiceProcess.startScript("shipped", root.resolve("bin/agent-platform"), dataDir,
                Map.of("JAVA_OPTS", "-Xlog:aot=info"))) {
            String log = Files.readString(service.log());
            assertThat(log).as(service.log().toString()).contains("Opened AOT cache")
                    .doesNotContain("[error][aot]", "Unable to map shared spaces", "starting without it");
            HttpResponse<String> readiness = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(service.baseUrl() + "/actuator/health/readiness")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(readiness.statusCode()).isEqualTo(200);
            assertThat(readiness.body()).contains("\"status\":\"UP\"");
        }
    }
}
