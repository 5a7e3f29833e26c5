package org.agentplatform.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.agentplatform.infra.adapter.identity.FirstStart;
import org.agentplatform.infra.support.OpenApiResponses;
import org.agentplatform.infra.support.PlatformTest;
import org.agentplatform.infra.support.TestPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real outage of the key store: the service's database refuses connections. Authentication of a key it
 * has to look up must answer 503 {@code auth_unavailable} (not 401: the key may be fine), then recover on
 * its own; a key it found moments ago keeps working.
 */
@PlatformTest
@DirtiesContext
@TestPropertySource(properties = "agent-platform.identity.credential-cache-ttl=10m")
class KeyStoreOutageHttpTest {

    @LocalServerPort
    int port;

    @Value("${agent-platform.data-dir}")
    Path dataDir;

    @Value("${agent-platform.database.url}")
    String databaseUrl;

    @Test
    void unreachableKeyStoreIsAuthUnavailableAndRecovers() throws Exception {
        WebTestClient http = WebTestClient.bindToServer().filter(OpenApiResponses.validating()).baseUrl("http://localhost:" + port)
                .responseTimeout(Duration.ofSeconds(30)).build();
        String first = Files.readString(dataDir.resolve(FirstStart.KEY_FILE)).strip();
        providers(http, first).expectStatus().isOk();
        // a key not used yet: the store must be asked for it
        String key = JsonMapper.builder().build().readTree(http.post().uri("/api/v1/api-keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + first).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "unused")).exchange().expectStatus().isCreated().expectBody().returnResult()
                .getResponseBody()).at("/data/key").asString();

        String database = URI.create(databaseUrl.substring("jdbc:".length())).getPath().substring(1);
        TestPostgres postgres = TestPostgres.get();
        postgres.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS false");
        try {
            postgres.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database + "'");
            expectAuthUnavailable(providers(http, key));
            // a key found in the store is trusted for a while (10 s by default): an outage does not log its caller out
            providers(http, first).expectStatus().isOk();
            expectAuthUnavailable(http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("email", "someone@example.test", "password", "whatever1")).exchange());
        } finally {
            postgres.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS true");
        }

        Instant deadline = Instant.now().plusSeconds(30);
        int status;
        do {
            status = providers(http, key).returnResult(String.class).getStatus().value();
        } while (status != 200 && Instant.now().isBefore(deadline));
        assertThat(status).as("authentication recovers once the store is back").isEqualTo(200);
    }

    private static void expectAuthUnavailable(WebTestClient.ResponseSpec response) {
        byte[] body = response.expectStatus().isEqualTo(503).expectBody().returnResult().getResponseBody();
        JsonNode error = JsonMapper.builder().build().readTree(body).get("error");
        assertThat(error.get("code").asString()).isEqualTo("auth_unavailable");
        assertThat(error.get("param").asString()).isEmpty();
    }

    private static WebTestClient.ResponseSpec providers(WebTestClient http, String key) {
        return http.get().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange();
    }
}
