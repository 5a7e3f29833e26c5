package org.agentplatform.infra.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.agentplatform.infra.AgentPlatformApplication;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The whole service started as {@code java -jar} starts it (not a cached test context), on a data directory
 * of the test's own, so a test can stop it and start it again on the same data.
 */
public final class StandaloneService {

    private StandaloneService() {
    }

    public static ConfigurableApplicationContext start(Path dataDir, String... settings) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--agent-platform.data-dir=" + dataDir,
                "--logging.structured.format.console="));
        arguments.addAll(List.of(settings));
        return new SpringApplication(AgentPlatformApplication.class).run(arguments.toArray(String[]::new));
    }

    /** A client of a running service, every response it receives checked against the OpenAPI document. */
    public static WebTestClient http(ConfigurableApplicationContext service) {
        return WebTestClient.bindToServer().filter(OpenApiResponses.validating())
                .baseUrl("http://localhost:" + service.getEnvironment().getProperty("local.server.port"))
                .responseTimeout(Duration.ofSeconds(30)).build();
    }

    /** The first owner's client of a running service (its key is the one first start wrote). */
    public static PlatformClient client(ConfigurableApplicationContext service, Path dataDir) {
        WebTestClient http = http(service);
        try {
            return new PlatformClient(http, Files.readString(dataDir.resolve(FirstStart.KEY_FILE)).strip());
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
