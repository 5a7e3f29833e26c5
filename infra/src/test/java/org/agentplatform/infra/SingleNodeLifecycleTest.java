package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.agentplatform.infra.cli.UsersCommandAccess;
import org.agentplatform.infra.support.OpenApiResponses;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The single node as a newcomer runs it, with nothing configured: the CLI and the service on the
 * embedded PostgreSQL in one data directory, across stops and starts.
 */
class SingleNodeLifecycleTest {

    private static final String PASSWORD = "a long enough password";

    @TempDir
    Path dataDir;

    @Test
    void firstStartKeyUsersAndDataSurviveRestartsAndNothingIsLeftRunning() throws IOException {
        // the CLI on a fresh data directory creates the database, the first owner and key, and a user
        assertThat(cli("create", "--email", "admin@example.test")).isZero();
        Path keyFile = dataDir.resolve(FirstStart.KEY_FILE);
        String firstKey = Files.readString(keyFile).strip();
        assertThat(firstKey).matches("oag_[0-9a-f]{64}");
        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        try (ConfigurableApplicationContext service = start()) {
            WebTestClient http = client(service);
            providers(http, firstKey).expectStatus().isOk();
            String token = login(http, "admin@example.test");
            http.post().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "survivor"))
                    .exchange().expectStatus().isCreated();
            // beside the running service the CLI uses the service's database
            assertThat(cli("create", "--email", "second@example.test")).isZero();
            login(http, "second@example.test");
        }
        assertThat(postgresRunning()).as("the embedded PostgreSQL stops with the service").isFalse();
        assertThat(Files.readString(keyFile).strip()).as("first start happens once").isEqualTo(firstKey);

        try (ConfigurableApplicationContext service = start()) {
            WebTestClient http = client(service);
            providers(http, firstKey).expectStatus().isOk();
            login(http, "admin@example.test");
            http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey).exchange()
                    .expectStatus().isOk()
                    .expectBody().jsonPath("$.data.api_keys[?(@.name == 'survivor')]").exists();
        }
        assertThat(postgresRunning()).isFalse();
    }

    @Test
    void theFirstStartBannerShowsTheKeyOnceWithThePortTheServerTook() throws IOException {
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        String port;
        try (ConfigurableApplicationContext service = start()) {
            port = service.getEnvironment().getProperty("local.server.port");
            providers(client(service), Files.readString(dataDir.resolve(FirstStart.KEY_FILE)).strip()).expectStatus().isOk();
        } finally {
            System.setOut(console);
        }
        String banner = printed.toString(StandardCharsets.UTF_8);
        assertThat(banner).contains(Files.readString(dataDir.resolve(FirstStart.KEY_FILE)).strip())
                .contains("http://localhost:" + port + "/api/v1/providers");
        assertThat(port).isNotEqualTo("8080");
        // plain-text logs keep each line's key-value pairs; routine noise stays below INFO
        assertThat(banner).containsPattern("request request_id=\"req_[0-9a-f]+\" method=\"GET\" path=\"/api/v1/providers\" status=\"200\" duration_ms=\"\\d+\"")
                .doesNotContain("Failed to introspect").doesNotContain("claimed the token");

        printed.reset();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (ConfigurableApplicationContext ignored = start()) {
            assertThat(printed.toString(StandardCharsets.UTF_8)).doesNotContain("First start");
        } finally {
            System.setOut(console);
        }
    }

    @Test
    void aSecondServiceCannotTakeABusyDataDirectory() {
        try (ConfigurableApplicationContext ignored = start()) {
            assertThatThrownBy(this::start)
                    .hasStackTraceContaining("in use by another agent-platform process");
        }
    }

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir);
    }

    private int cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--agent-platform.data-dir=" + dataDir);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        return UsersCommandAccess.run(all.toArray(String[]::new),
                new ByteArrayInputStream((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    }

    private boolean postgresRunning() throws IOException {
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return false;
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static WebTestClient client(ConfigurableApplicationContext service) {
        String port = service.getEnvironment().getProperty("local.server.port");
        return WebTestClient.bindToServer().filter(OpenApiResponses.validating()).baseUrl("http://localhost:" + port).responseTimeout(Duration.ofSeconds(30)).build();
    }

    private static WebTestClient.ResponseSpec providers(WebTestClient http, String key) {
        return http.get().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange();
    }

    private static String login(WebTestClient http, String email) {
        Map<?, ?> body = http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", email, "password", PASSWORD))
                .exchange().expectStatus().isOk()
                .expectBody(Map.class).returnResult().getResponseBody();
        return Optional.ofNullable((Map<?, ?>) body.get("data")).map(data -> (String) data.get("access_token")).orElseThrow();
    }
}
