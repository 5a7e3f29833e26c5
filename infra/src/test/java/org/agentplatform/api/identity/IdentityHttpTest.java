package org.agentplatform.api.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.infra.adapter.identity.IdentityConfiguration;
import org.agentplatform.infra.adapter.identity.UserAdmin;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** The built-in identity endpoints: login, API keys, JWKS. */
class IdentityHttpTest extends ApiTest {

    private static final String PASSWORD = "correct horse battery staple";

    @Autowired
    JdbcTemplate jdbc;

    private String email;
    private OwnerId owner;

    @BeforeEach
    void aUser() {
        UserAdmin admin = new UserAdmin(jdbc, IdentityConfiguration.passwords(), Clock.systemUTC());
        owner = admin.createOwner("identity test");
        email = "user-" + UUID.randomUUID() + "@example.test";
        admin.create(email, PASSWORD, owner);
    }

    @Test
    void loginReturnsAnRs256TokenThatAuthenticates() {
        JsonNode data = json(login(email, PASSWORD).expectStatus().isOk().expectBody().returnResult()).get("data");
        assertThat(data.get("token_type").asString()).isEqualTo("Bearer");
        assertThat(data.get("expires_in").asLong()).isEqualTo(3600);
        String token = data.get("access_token").asString();
        assertThat(token.split("\\.")).hasSize(3);
        http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .exchange().expectStatus().isOk();
    }

    @Test
    void emailIsMatchedCaseInsensitively() {
        login(email.toUpperCase(), PASSWORD).expectStatus().isOk();
    }

    @Test
    void wrongPasswordIsLoginRejected() {
        assertError(login(email, "not the password"), 422, "login_rejected", "");
    }

    @Test
    void unknownEmailIsLoginRejected() {
        assertError(login("nobody-" + UUID.randomUUID() + "@example.test", PASSWORD), 422, "login_rejected", "");
    }

    /**
     * The limit's guesses go at once, as an attacker's would: each is throttled as it arrives, before its password is
     * checked, so they all meet the budget within a moment, however slow the machine is at checking passwords (one at a
     * time, ten checks on a busy machine outlasted the six seconds in which a permit comes back). One of the limit + 1 is
     * refused, the right password included or not.
     */
    @Test
    void guessingPasswordsIsRateLimitedPerEmailAndAddress() throws Exception {
        int limit = AuthRoutes.ATTEMPTS_PER_EMAIL_AND_ADDRESS_PER_MINUTE;
        ExecutorService attackers = Executors.newFixedThreadPool(limit + 1);
        try {
            List<Future<EntityExchangeResult<byte[]>>> attempts = new ArrayList<>();
            for (int attempt = 0; attempt <= limit; attempt++) {
                String password = attempt == limit ? PASSWORD : "guess " + attempt;
                attempts.add(attackers.submit(() -> login(email, password).expectBody().returnResult()));
            }
            List<EntityExchangeResult<byte[]>> answers = new ArrayList<>();
            for (Future<EntityExchangeResult<byte[]>> attempt : attempts) {
                answers.add(attempt.get());
            }
            assertThat(answers).as("the limit's guesses and one more").filteredOn(answer -> answer.getStatus().value() == 429)
                    .singleElement().satisfies(refused -> {
                        assertThat(json(refused).at("/error/code").asString()).isEqualTo("rate_limited");
                        assertThat(refused.getResponseHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isNotNull();
                    });
            assertThat(answers).filteredOn(answer -> answer.getStatus().value() != 429)
                    .allMatch(answer -> answer.getStatus().value() == 422 || answer.getStatus().value() == 200);
        } finally {
            attackers.shutdownNow();
        }
        // the limit is the pair's: another user from the same address logs in
        login(otherUser(), PASSWORD).expectStatus().isOk();
    }

    @Test
    void loginNeedsEmailAndPassword() {
        assertError(http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("password", PASSWORD)).exchange(), 400, "missing_param", "email");
        assertError(http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", email)).exchange(), 400, "missing_param", "password");
    }

    @Test
    void loggedInUserSeesOnlyTheirOwnersKeys() {
        String token = accessToken();
        JsonNode created = json(http.post().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("name", "mine"))
                .exchange().expectStatus().isCreated().expectBody().returnResult()).get("data");
        JsonNode listed = json(http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .exchange().expectStatus().isOk().expectBody().returnResult()).get("data").get("api_keys");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("id").asString()).isEqualTo(created.get("id").asString());
        // the first owner's key cannot revoke it
        assertError(http.delete().uri("/api/v1/api-keys/{id}", created.get("id").asString())
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange(), 404, "not_found", "");
    }

    @Test
    void createdKeyIsShownOnceAndStoredOnlyAsHashAndPrefix() {
        JsonNode data = json(http.post().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("name", "ci", "rate_limit_per_minute", 120, "scopes", new String[] {"agents:*"}))
                .exchange().expectStatus().isCreated().expectBody().returnResult()).get("data");
        String key = data.get("key").asString();
        assertThat(key).matches("oag_[0-9a-f]{64}");
        assertThat(data.get("key_prefix").asString()).isEqualTo(key.substring(0, 12));
        assertThat(data.get("rate_limit_per_minute").asInt()).isEqualTo(120);
        assertThat(data.get("expires_at").isNull()).isTrue();

        JsonNode listed = json(http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk().expectBody().returnResult()).get("data");
        assertThat(listed.toString()).doesNotContain(key).doesNotContain("\"key\"");
        var stored = jdbc.queryForMap("SELECT key_prefix, key_hash FROM api_key WHERE id = ?::uuid", data.get("id").asString());
        assertThat(stored.get("key_prefix")).isEqualTo(key.substring(0, 12));
        assertThat((byte[]) stored.get("key_hash")).isEqualTo(ApiKeySecret.sha256(key));
    }

    @Test
    void revokingTwiceIsNotFound() {
        String key = createKey(Map.of("name", "twice"));
        String id = json(http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + key)
                .exchange().expectBody().returnResult()).at("/data/api_keys/0/id").asString();
        JsonNode revoked = json(http.delete().uri("/api/v1/api-keys/{id}", id).header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk().expectBody().returnResult()).get("data");
        assertThat(revoked.get("revoked_at").isNull()).isFalse();
        assertError(http.delete().uri("/api/v1/api-keys/{id}", id).header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange(), 404, "not_found", "");
    }

    @Test
    void jwksServesThePublicSigningKeyWithoutAuthentication() {
        JsonNode keys = json(http.get().uri("/.well-known/jwks.json").exchange().expectStatus().isOk()
                .expectBody().returnResult()).get("keys");
        assertThat(keys).hasSize(1);
        assertThat(keys.get(0).get("kty").asString()).isEqualTo("RSA");
        assertThat(keys.get(0).get("alg").asString()).isEqualTo("RS256");
        assertThat(keys.get(0).has("d")).as("private exponent must never be published").isFalse();
    }

    private String otherUser() {
        String other = "other-" + UUID.randomUUID() + "@example.test";
        new UserAdmin(jdbc, IdentityConfiguration.passwords(), Clock.systemUTC()).create(other, PASSWORD, owner);
        return other;
    }

    private String accessToken() {
        return json(login(email, PASSWORD).expectStatus().isOk().expectBody().returnResult()).at("/data/access_token").asString();
    }

    private WebTestClient.ResponseSpec login(String email, String password) {
        return http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", email, "password", password)).exchange();
    }
}
