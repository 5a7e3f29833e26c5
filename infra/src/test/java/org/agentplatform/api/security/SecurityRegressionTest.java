package org.agentplatform.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.auth.CallerAuthenticationManager;
import org.agentplatform.infra.adapter.identity.IdentityConfiguration;
import org.agentplatform.infra.adapter.identity.UserAdmin;
import org.agentplatform.infra.cli.UsersCommandAccess;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.ExternalIdentityProvider;
import org.agentplatform.infra.support.Jwts;
import org.agentplatform.infra.support.OpenApiResponses;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** The attacks of the hardening issue, each through the real HTTP stack, each answered as it must be. */
class SecurityRegressionTest extends ApiTest {

    private static final String PROTECTED = "/api/v1/providers";
    private static final String PASSWORD = "a long enough password";

    @Autowired
    RSAKey tokenSigningKey;
    @Autowired
    PlatformProperties properties;

    // 1. SSRF: no spelling of an internal address reaches a receiver that listens on every local address

    @Test
    void noSpellingOfAnInternalAddressIsCalled() {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "ssrf-" + UUID.randomUUID());
        try (WebhookReceiver receiver = WebhookReceiver.onEveryAddress()) {
            int port = receiver.port();
            // 127.0.0.1 is allow-listed in the tests; 127.0.0.2 is not, and the receiver answers on it
            List<String> hosts = List.of("127.0.0.2", "[::127.0.0.2]", "[::7f00:2]", "[0:0:0:0:0:0:127.0.0.2]", "[::ffff:127.0.0.2]",
                    "[::ffff:7f00:2]", "[::ffff:0:7f00:2]", "[64:ff9b::127.0.0.2]", "[2002:7f00:2::1]", "[2001:0:7f00:2::80ff:fffd]",
                    "2130706434", "0x7f000002", "0x7f.0.0.2", "0177.0.0.2", "127.2", "127.0.2", "[::]", "0", "[::1]");
            List<String> tasks = new ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                String url = "http://" + hosts.get(i) + ":" + port + "/ssrf-" + i;
                EntityExchangeResult<byte[]> created = owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("message", "x\n/echo then=input", "webhooks", List.of(Map.of("url", url)))).exchange()
                        .expectBody().returnResult();
                if (created.getStatus().value() == 400) {
                    // a host java.net.URI does not take as a host at all is refused at registration, with the reason
                    assertThat(json(created).at("/error/param").asString()).as(hosts.get(i)).isEqualTo("webhooks[0].url");
                    tasks.add(null);
                } else {
                    assertThat(created.getStatus().value()).as(hosts.get(i)).isEqualTo(202);
                    tasks.add(json(created).at("/data/task_id").asString());
                }
            }
            for (int i = 0; i < hosts.size(); i++) {
                String task = tasks.get(i);
                if (task == null) {
                    continue;
                }
                String webhook = body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks", agent, task).exchange(), 200)
                        .at("/data/webhooks/0/webhook_id").asString();
                // newest first, one row per state the task went through; the oldest is attempted first (the others wait for it)
                JsonNode rows = PlatformClient.await(() -> body(owner.get("/api/v1/agents/{a}/tasks/{t}/webhooks/{w}/deliveries", agent,
                        task, webhook).exchange(), 200).at("/data/deliveries"),
                        found -> found.size() >= 1 && found.get(found.size() - 1).get("attempt_num").asInt() >= 1,
                        "a refused delivery to " + hosts.get(i));
                for (JsonNode row : rows) {
                    if (row.get("attempt_num").asInt() == 0) {
                        continue;
                    }
                    // attempted and refused: failed, or pending again once its retry is due (a slow run reads it then)
                    assertThat(row.get("status").asString()).as(hosts.get(i)).isIn("failed", "pending", "dead_letter");
                    assertThat(row.get("last_error").asString()).as(hosts.get(i)).containsAnyOf("internal address", "not a valid address");
                    assertThat(row.get("last_response_status").asInt()).isZero();
                }
            }
            assertThat(receiver.received()).as("requests that reached the receiver").isZero();
        }
    }

    // 2. a JWE-shaped (or otherwise unsigned) bearer token is 401 invalid_token, never a 500

    @Test
    void aJweShapedTokenIsInvalidToken() {
        assertError(call("Bearer eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abc.def.ghi"), 401, "invalid_token", "");
        assertError(call("Bearer eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d"), 401, "invalid_token", "");
        assertError(call("Bearer eyJhbGciOiJub25lIn0.e30."), 401, "invalid_token", "");
        assertError(call("Bearer ..."), 401, "invalid_token", "");
    }

    // 3. built-in tokens: exp, typ and a sub that is an active user of that owner_id; external at+jwt accepted

    @Test
    void builtInTokensNeedExpTypAndAnActiveUserOfTheirOwner() {
        User alice = user();
        User other = user();
        call(bearer(alice.claims())).expectStatus().isOk();
        assertError(call(bearer(alice.claims().expirationTime(null))), 401, "invalid_token", "");
        assertError(call("Bearer " + Jwts.rs256(tokenSigningKey, tokenSigningKey.getKeyID(), null, alice.claims().build())), 401,
                "invalid_token", "");
        assertError(call(bearer(alice.claims().subject(UUID.randomUUID().toString()))), 401, "invalid_token", "");
        assertError(call(bearer(alice.claims().subject("not-a-uuid"))), 401, "invalid_token", "");
        // alice's subject with the other owner's id: not served as that owner
        assertError(call(bearer(alice.claims().claim(CallerAuthenticationManager.OWNER_CLAIM, other.owner().toString()))), 401,
                "invalid_token", "");
    }

    @Test
    void aDisabledUserCannotLogInAndLosesAccessWithinTheCacheLifetime() {
        String email = "disable-" + UUID.randomUUID() + "@example.test";
        assertThat(users("create", "--email", email)).isZero();
        String token = json(login(email).expectStatus().isOk().expectBody().returnResult()).at("/data/access_token").asString();
        call("Bearer " + token).expectStatus().isOk();
        assertThat(users("disable", "--email", email)).isZero();
        assertError(login(email), 422, "login_rejected", "");
        Instant disabled = Instant.now();
        PlatformClient.await(() -> call("Bearer " + token).returnResult(String.class).getStatus().value(), status -> status == 401,
                "the disabled user's token refused");
        assertThat(Duration.between(disabled, Instant.now())).isLessThanOrEqualTo(properties.identity().credentialCacheTtl().plusSeconds(5));
        assertThat(users("disable", "--email", "nobody-" + UUID.randomUUID() + "@example.test")).isEqualTo(1);
    }

    @Test
    void externalAccessTokensTypedAtJwtAreAccepted() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        JWTClaimsSet claims = idp.claims("rfc9068-" + UUID.randomUUID()).build();
        call("Bearer " + Jwts.rs256(idp.key(), idp.key().getKeyID(), new JOSEObjectType("at+jwt"), claims)).expectStatus().isOk();
        call("Bearer " + Jwts.rs256(idp.key(), idp.key().getKeyID(), null, claims)).expectStatus().isOk();
        assertError(call("Bearer " + Jwts.rs256(idp.key(), idp.key().getKeyID(), new JOSEObjectType("secevent+jwt"), claims)), 401,
                "invalid_token", "");
        assertError(call("Bearer " + idp.token(idp.claims("no-exp").expirationTime(null).build())), 401, "invalid_token", "");
    }

    // 5. guessing from one address locks out that address, not the user

    @Test
    void anAttackerCannotLockAUserOut() {
        String email = "target-" + UUID.randomUUID() + "@example.test";
        UserAdmin admin = new UserAdmin(jdbc(), IdentityConfiguration.passwords(), Clock.systemUTC());
        admin.create(email, PASSWORD, admin.createOwner("lockout " + UUID.randomUUID()));
        login(email).expectStatus().isOk(); // the user's usual address: 127.0.0.1
        WebTestClient attacker = from("127.0.0.2");
        int refused = 0;
        for (int guess = 0; guess < 15; guess++) {
            int status = attacker.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("email", email, "password", "guess " + guess)).exchange().returnResult(String.class).getStatus().value();
            assertThat(status).isIn(422, 429);
            refused += status == 429 ? 1 : 0;
        }
        assertThat(refused).as("guesses refused once the attacker's address used its share").isGreaterThanOrEqualTo(5);
        login(email).expectStatus().isOk();
        from("127.0.0.3").post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", email, "password", PASSWORD)).exchange().expectStatus().isOk();
    }

    /** A client whose connections come from {@code address} (another loopback address). */
    private WebTestClient from(String address) {
        reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create()
                .bindAddress(() -> new java.net.InetSocketAddress(address, 0));
        return WebTestClient.bindToServer(new org.springframework.http.client.reactive.ReactorClientHttpConnector(client))
                .filter(OpenApiResponses.validating()).baseUrl("http://127.0.0.1:" + port).responseTimeout(Duration.ofSeconds(30)).build();
    }

    // 4. every refusal carries the envelope: the firewall's, the HTTP decoder's, and WebFlux's own

    @Test
    void encodedPathTricksAreRefusedWithTheEnvelope() {
        assertError(http.get().uri(raw("/api/v1/agents/%2e%2e")).header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange(), 400, "invalid_param", "path");
        assertError(http.get().uri(raw("/storage/v1/objects/..%2f..%2fsecret.key")).exchange(), 400, "invalid_param", "path");
        assertError(http.get().uri(raw("/api/v1/agents;jsessionid=1")).header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange(), 400, "invalid_param", "path");
    }

    @Test
    void oversizedHeadersAndUrisAreRefusedWithTheEnvelope() {
        assertError(http.get().uri(PROTECTED).header(HttpHeaders.AUTHORIZATION, "Bearer " + "a".repeat(60 * 1024)).exchange(), 431,
                "headers_too_large", "");
        assertError(http.get().uri("/api/v1/" + "a".repeat(70 * 1024)).exchange(), 414, "uri_too_long", "");
    }

    @Test
    void aFormBodyWhereJsonIsExpectedIsUnsupportedMediaType() {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "forms-" + UUID.randomUUID());
        String task = owner.task(agent, "x\n/echo then=input");
        assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .bodyValue("reason=x").exchange(), 415, "unsupported_media_type", "");
        assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).contentType(MediaType.TEXT_PLAIN)
                .bodyValue("x").exchange(), 415, "unsupported_media_type", "");
    }

    private record User(UUID id, OwnerId owner, JWTClaimsSet.Builder template) {

        JWTClaimsSet.Builder claims() {
            return new JWTClaimsSet.Builder(template.build());
        }
    }

    private User user() {
        UserAdmin admin = new UserAdmin(jdbc(), IdentityConfiguration.passwords(), Clock.systemUTC());
        OwnerId owner = admin.createOwner("security " + UUID.randomUUID());
        UUID id = admin.create("u-" + UUID.randomUUID() + "@example.test", PASSWORD, owner).value();
        return new User(id, owner, Jwts.claims(properties.identity().issuer(), properties.identity().audience(), id.toString(), Instant.now())
                .claim(CallerAuthenticationManager.OWNER_CLAIM, owner.toString()));
    }

    /** The URI as written, not encoded again (the path tricks must reach the server as sent). */
    private java.net.URI raw(String path) {
        return java.net.URI.create("http://localhost:" + port + path);
    }

    private String bearer(JWTClaimsSet.Builder claims) {
        return "Bearer " + Jwts.rs256(tokenSigningKey, claims.build());
    }

    private WebTestClient.ResponseSpec call(String authorization) {
        return http.get().uri(PROTECTED).header(HttpHeaders.AUTHORIZATION, authorization).exchange();
    }

    private WebTestClient.ResponseSpec login(String email) {
        return http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("email", email, "password", PASSWORD)).exchange();
    }

    private int users(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(cliSettings());
        return UsersCommandAccess.run(all.toArray(String[]::new),
                new ByteArrayInputStream((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8)),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
    }

    private static JsonNode body(WebTestClient.ResponseSpec response, int status) {
        return PlatformClient.body(response, status);
    }
}
