package org.agentplatform.infra.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the HTTP tests: the real service on a random port, reached over real HTTP, with an external
 * identity provider configured beside the built-in one. All subclasses share one Spring context.
 */
@PlatformTest
public abstract class ApiTest {

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    protected int port;

    @Value("${agent-platform.data-dir}")
    Path dataDir;

    @Value("${agent-platform.database.url}")
    String databaseUrl;

    @Value("${agent-platform.database.user}")
    String databaseUser;

    @Value("${agent-platform.database.password}")
    String databasePassword;

    @Autowired
    protected TestClock clock;

    @Autowired
    private JdbcTemplate jdbcTemplate;

    protected WebTestClient http;

    /** The browser origins the tests' service allows: an app's (CorsHttpTest) and the page a real browser loads (BrowserCorsTest). */
    protected static final String CORS_ORIGIN = "https://app.example.test";
    protected static final String BROWSER_ORIGIN = "http://allowed.test";

    @DynamicPropertySource
    static void externalIdentityProvider(DynamicPropertyRegistry registry) {
        registry.add("agent-platform.jwt.jwks-uri", () -> ExternalIdentityProvider.get().jwksUri());
        registry.add("agent-platform.jwt.issuer", () -> ExternalIdentityProvider.ISSUER);
        registry.add("agent-platform.jwt.audience", () -> ExternalIdentityProvider.AUDIENCE);
        registry.add("agent-platform.models.openai.base-url", () -> FakeOpenAi.get().baseUrl());
        registry.add("agent-platform.models.openai.api-key", () -> FakeOpenAi.KEY);
        registry.add("agent-platform.models.openai.models", () -> FakeOpenAi.MODEL);
        // short waits so the failure paths (silent runtime, slow write) are reached quickly, with room on a busy machine:
        // a write slower than the sync wait (a 504) still answers well before the runtime counts as silent
        registry.add("agent-platform.operations.answer-timeout", () -> "8s");
        registry.add("agent-platform.operations.sync-wait", () -> "4s");
        registry.add("agent-platform.operations.sweep-interval", () -> "1s");
        // test-only: the retry schedule shortened to seconds, and callbacks allowed to the test's receivers on 127.0.0.1
        registry.add("agent-platform.webhooks.retry-delays", () -> "1s,1s,1s,1s,1s");
        // browser apps' origins (CorsHttpTest, BrowserCorsTest); any other origin is not allowed
        registry.add("agent-platform.cors.allowed-origins", () -> CORS_ORIGIN + "," + BROWSER_ORIGIN);
        registry.add("agent-platform.webhooks.allowed-networks", () -> "127.0.0.1/32");
    }

    @BeforeEach
    void connect() {
        http = WebTestClient.bindToServer()
                .filter(OpenApiResponses.validating())
                .baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                // the OpenAPI document (as YAML) is over the default 256 KiB a body may buffer
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(4 * 1024 * 1024))
                .build();
    }

    @AfterEach
    void resetClock() {
        clock.reset();
        ExternalIdentityProvider.get().failing(false);
    }

    /** The first owner's view of the platform. */
    protected PlatformClient platform() {
        return new PlatformClient(http, firstKey());
    }

    /** Another owner (an external identity provider's subject, a fresh owner each call). */
    protected PlatformClient stranger() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        return new PlatformClient(http, idp.token(idp.claims("stranger-" + UUID.randomUUID()).build()));
    }

    /** The key the service created on first start and wrote to the data directory. */
    protected String firstKey() {
        try {
            return Files.readString(dataDir.resolve(FirstStart.KEY_FILE), StandardCharsets.US_ASCII).strip();
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** Direct SQL, for asserting what is (and is not) stored. */
    protected JdbcTemplate jdbc() {
        return jdbcTemplate;
    }

    protected Path dataDir() {
        return dataDir;
    }

    /** The command line's settings that point a CLI command at this service's database and data directory. */
    protected List<String> cliSettings() {
        return List.of("--agent-platform.database.url=" + databaseUrl, "--agent-platform.database.user=" + databaseUser,
                "--agent-platform.database.password=" + databasePassword, "--agent-platform.data-dir=" + dataDir);
    }

    /** Creates an API key of the first owner through the API and answers its plaintext. */
    protected String createKey(Map<String, Object> body) {
        JsonNode created = json(http.post().uri("/api/v1/api-keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange()
                .expectStatus().isCreated()
                .expectBody().returnResult());
        return created.at("/data/key").asString();
    }

    protected static JsonNode json(EntityExchangeResult<byte[]> result) {
        return JSON.readTree(result.getResponseBody());
    }

    /**
     * Asserts the error envelope: the status, {@code error.code}, {@code error.param}, the type and
     * message present, and {@code error.request_id} equal to the {@code X-Request-Id} header.
     */
    protected static JsonNode assertError(WebTestClient.ResponseSpec response, int status, String code, String param) {
        EntityExchangeResult<byte[]> result = response.expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult();
        JsonNode body = json(result);
        assertThat(body.get("success").asBoolean(true)).isFalse();
        JsonNode error = body.get("error");
        assertThat(error.get("code").asString()).isEqualTo(code);
        assertThat(error.get("param").asString()).isEqualTo(param);
        assertThat(error.get("type").asString()).isNotBlank();
        assertThat(error.get("message").asString()).isNotBlank();
        assertThat(error.get("metadata").isObject()).isTrue();
        assertThat(error.get("request_id").asString())
                .isNotBlank()
                .isEqualTo(result.getResponseHeaders().getFirst("X-Request-Id"));
        return error;
    }
}
