package org.agentplatform.api.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.infra.adapter.identity.IdentityConfiguration;
import org.agentplatform.infra.adapter.identity.UserAdmin;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.ExternalIdentityProvider;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The console's session through real HTTP: a key or a password exchanged for an HttpOnly, SameSite=Strict cookie that
 * holds a short-lived token (never the key); the cookie counts only on requests the browser marks same-origin (so a page
 * of another site or port cannot use it), yields to an Authorization header, ends with its key's revocation, and is
 * cleared by signing out. Refusals are the error envelope. And what else the console reads: the caller's budgets, the
 * node's processors (and a retry of their parked events), the audit chain verified on request.
 */
class ConsoleSessionHttpTest extends ApiTest {

    private static final String PASSWORD = "session-password-1";

    @Test
    void aKeysSessionIsAnHttpOnlyStrictCookieUsableOnlyFromThisOrigin() {
        String key = createKey(Map.of("name", "console"));
        EntityExchangeResult<byte[]> signedIn = signIn(Map.of("api_key", key));
        JsonNode session = json(signedIn).get("data");
        assertThat(session.get("credential").asString()).isEqualTo("api_key");
        assertThat(session.get("expires_at").asString()).isNotEmpty();
        ResponseCookie cookie = signedIn.getResponseCookies().getFirst("agent_platform_session");
        assertThat(cookie).isNotNull();
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Strict");
        assertThat(cookie.getPath()).isEqualTo("/api/");
        assertThat(cookie.getMaxAge().toSeconds()).isBetween(1L, 3600L);
        assertThat(cookie.getValue()).as("the cookie holds a token, not the key").doesNotContain(key.substring(4));

        JsonNode me = json(withCookie(cookie.getValue(), "same-origin").exchange().expectStatus().isOk().expectBody().returnResult())
                .get("data");
        assertThat(me.get("owner_id").asString()).isEqualTo(session.get("owner_id").asString());
        assertThat(me.get("credential").asString()).isEqualTo("api_key");
        // another site, another port of this host (same-site), or no browser's word: the cookie does not count
        assertError(withCookie(cookie.getValue(), "cross-site").exchange(), 401, "unauthorized", "");
        assertError(withCookie(cookie.getValue(), "same-site").exchange(), 401, "unauthorized", "");
        assertError(http.get().uri("/api/v1/owners/me").cookie("agent_platform_session", cookie.getValue()).exchange(), 401,
                "unauthorized", "");
        // an Authorization header wins over the cookie
        assertThat(json(withCookie(cookie.getValue(), "same-origin").header(HttpHeaders.AUTHORIZATION, "Bearer " + strangerToken())
                .exchange().expectStatus().isOk().expectBody().returnResult()).at("/data/credential").asString()).isEqualTo("external");

        // a session's token is not a key (nor as long as one may be): it signs in nothing
        assertError(post(Map.of("api_key", cookie.getValue())), 400, "invalid_param", "api_key");

        // the key revoked: its session ends with it
        String id = json(http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange()
                .expectBody().returnResult()).at("/data/api_keys/0/id").asString();
        http.delete().uri("/api/v1/api-keys/{id}", id).header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange()
                .expectStatus().isOk();
        assertError(withCookie(cookie.getValue(), "same-origin").exchange(), 401, "invalid_token", "");
    }

    @Test
    void aPasswordSignsInAndSigningOutClearsTheCookie() {
        String email = "session-" + UUID.randomUUID() + "@example.test";
        OwnerId owner = new OwnerId(UUID.fromString(jdbc().queryForObject("SELECT owner_id::text FROM api_key WHERE key_hash = ?",
                String.class, (Object) ApiKeySecret.sha256(firstKey()))));
        new UserAdmin(jdbc(), IdentityConfiguration.passwords(), Clock.systemUTC()).create(email, PASSWORD, owner);
        EntityExchangeResult<byte[]> signedIn = signIn(Map.of("email", email, "password", PASSWORD));
        assertThat(json(signedIn).at("/data/credential").asString()).isEqualTo("user");
        String token = signedIn.getResponseCookies().getFirst("agent_platform_session").getValue();
        assertThat(json(withCookie(token, "same-origin").exchange().expectStatus().isOk().expectBody().returnResult())
                .at("/data/owner_id").asString()).isEqualTo(owner.toString());

        EntityExchangeResult<byte[]> signedOut = http.delete().uri("/api/v1/auth/session").exchange().expectStatus().isNoContent()
                .expectBody().returnResult();
        ResponseCookie cleared = signedOut.getResponseCookies().getFirst("agent_platform_session");
        assertThat(cleared.getValue()).isEmpty();
        assertThat(cleared.getMaxAge().isZero()).isTrue();
    }

    @Test
    void wrongCredentialsAndBadBodiesAreRefusedInTheEnvelope() {
        assertError(post(Map.of("api_key", "oag_" + "0".repeat(64))), 422, "login_rejected", "");
        assertError(post(Map.of("api_key", "not-a-key")), 422, "login_rejected", "");
        assertError(post(Map.of("email", "nobody@example.test", "password", "wrong")), 422, "login_rejected", "");
        assertError(post(Map.of()), 400, "invalid_body", "api_key");
        assertError(post(Map.of("api_key", firstKey(), "email", "x@example.test")), 400, "invalid_body", "api_key");
        assertError(post(Map.of("email", "x@example.test")), 400, "missing_param", "password");
    }

    @Test
    void theCallerSeesItsBudgetsAndTheNodesProcessorsAndAsksForARetry() {
        JsonNode me = json(http.get().uri("/api/v1/owners/me").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange()
                .expectStatus().isOk().expectBody().returnResult()).get("data");
        assertThat(me.at("/control_budget/actions/limit").asInt()).isEqualTo(60);
        assertThat(me.at("/control_budget/info/limit").asInt()).isEqualTo(300);
        assertThat(me.at("/control_budget/actions/remaining").asInt()).isBetween(0, 60);

        JsonNode processors = json(http.get().uri("/api/v1/processors").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange()
                .expectStatus().isOk().expectBody().returnResult()).at("/data/processors");
        assertThat(processors).isNotEmpty();
        JsonNode first = processors.get(0);
        assertThat(first.get("segments").asInt()).isPositive();
        assertThat(first.get("parked_events").asLong()).isNotNegative();
        JsonNode retry = json(http.post().uri("/api/v1/processors/{name}/dead-letters/retry", first.get("name").asString())
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange().expectStatus().isAccepted().expectBody()
                .returnResult())
                .get("data");
        assertThat(retry.get("processor").asString()).isEqualTo(first.get("name").asString());
        assertThat(jdbc().queryForObject("SELECT processing_group FROM dead_letter_retry WHERE id = ?", String.class,
                retry.get("retry_id").asLong())).isEqualTo(first.get("name").asString());
        assertError(http.post().uri("/api/v1/processors/{name}/dead-letters/retry", "no-such-processor")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange(), 404, "not_found", "");
    }

    @Test
    void theAuditChainIsVerifiedOnRequest() {
        JsonNode verified = json(http.post().uri("/api/v1/audit/verifications").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk().expectBody().returnResult()).get("data");
        assertThat(verified.get("ok").asBoolean()).as("%s", verified).isTrue();
        assertThat(verified.get("mismatch").isNull()).isTrue();
        assertThat(verified.get("verified_at").asString()).isNotEmpty();
    }

    private static String strangerToken() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        return idp.token(idp.claims("stranger-" + UUID.randomUUID()).build());
    }

    private EntityExchangeResult<byte[]> signIn(Map<String, String> body) {
        return http.post().uri("/api/v1/auth/session").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isOk().expectBody().returnResult();
    }

    private WebTestClient.ResponseSpec post(Map<String, String> body) {
        return http.post().uri("/api/v1/auth/session").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private WebTestClient.RequestHeadersSpec<?> withCookie(String token, String fetchSite) {
        return http.get().uri("/api/v1/owners/me").cookie("agent_platform_session", token).header("Sec-Fetch-Site", fetchSite);
    }
}
