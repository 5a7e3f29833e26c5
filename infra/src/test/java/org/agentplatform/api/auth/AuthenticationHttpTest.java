package org.agentplatform.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.ExternalIdentityProvider;
import org.agentplatform.infra.support.Jwts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Every authentication outcome of the contract, through the real HTTP stack. */
class AuthenticationHttpTest extends ApiTest {

    private static final String PROTECTED = "/api/v1/providers";

    @Autowired
    RSAKey tokenSigningKey;

    @Autowired
    PlatformProperties properties;

    private String builtInIssuer;
    private String builtInAudience;

    @BeforeEach
    void builtInIssuer() {
        builtInIssuer = properties.identity().issuer();
        builtInAudience = properties.identity().audience();
    }

    @Test
    void missingHeaderIsUnauthorized() {
        assertError(http.get().uri(PROTECTED).exchange(), 401, "unauthorized", "");
    }

    @Test
    void otherSchemeIsUnauthorized() {
        assertError(call("Basic dXNlcjpwYXNz"), 401, "unauthorized", "");
        assertError(call("Token " + firstKey()), 401, "unauthorized", "");
    }

    @Test
    void emptyHeaderIsMissingToken() {
        assertError(call(""), 401, "missing_token", "");
    }

    @Test
    void bearerWithoutTokenIsMissingToken() {
        assertError(call("Bearer"), 401, "missing_token", "");
        assertError(call("Bearer    "), 401, "missing_token", "");
    }

    @Test
    void firstKeyIsAccepted() {
        call("Bearer " + firstKey()).expectStatus().isOk();
    }

    @Test
    void schemeIsCaseInsensitive() {
        call("bearer " + firstKey()).expectStatus().isOk();
    }

    @Test
    void unknownKeyIsInvalidToken() {
        assertError(call("Bearer " + ApiKeySecret.generate().plaintext()), 401, "invalid_token", "");
    }

    @Test
    void malformedKeyIsInvalidToken() {
        assertError(call("Bearer oag_not-hex"), 401, "invalid_token", "");
        assertError(call("Bearer " + firstKey().toUpperCase().replace("OAG_", "oag_")), 401, "invalid_token", "");
    }

    @Test
    void revokedKeyIsInvalidToken() {
        String key = createKey(Map.of("name", "to revoke"));
        call("Bearer " + key).expectStatus().isOk();
        String id = keyId(key);
        http.delete().uri("/api/v1/api-keys/{id}", id)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange()
                .expectStatus().isOk();
        assertError(call("Bearer " + key), 401, "invalid_token", "");
    }

    @Test
    void expiredKeyIsInvalidToken() {
        String key = createKey(Map.of("name", "short-lived", "expires_at", Instant.now().plusSeconds(60).toString()));
        call("Bearer " + key).expectStatus().isOk();
        clock.advance(Duration.ofMinutes(2));
        assertError(call("Bearer " + key), 401, "invalid_token", "");
    }

    @Test
    void builtInJwtIsAccepted() {
        call("Bearer " + builtInToken(ownedClaims())).expectStatus().isOk();
    }

    @Test
    void jwtWithBadSignatureIsInvalidToken() {
        RSAKey stranger = Jwts.newRsaKey();
        String forged = Jwts.rs256(stranger, tokenSigningKey.getKeyID(), ownedClaims().build());
        assertError(call("Bearer " + forged), 401, "invalid_token", "");
    }

    @Test
    void unsignedJwtIsInvalidToken() {
        assertError(call("Bearer " + Jwts.unsigned(ownedClaims().build())), 401, "invalid_token", "");
    }

    @Test
    void hs256SignedWithThePublicKeyIsInvalidToken() {
        String forged = Jwts.hs256WithPublicKey(tokenSigningKey.toPublicJWK(), ownedClaims().build());
        assertError(call("Bearer " + forged), 401, "invalid_token", "");
    }

    @Test
    void expiredJwtIsInvalidToken() {
        Instant longAgo = Instant.now().minus(Duration.ofHours(3));
        String expired = builtInToken(ownedClaims()
                .issueTime(Date.from(longAgo))
                .expirationTime(Date.from(longAgo.plus(Duration.ofHours(1)))));
        assertError(call("Bearer " + expired), 401, "invalid_token", "");
    }

    @Test
    void jwtExpiresWithTime() {
        String token = builtInToken(ownedClaims());
        call("Bearer " + token).expectStatus().isOk();
        clock.advance(Duration.ofHours(2));
        assertError(call("Bearer " + token), 401, "invalid_token", "");
    }

    @Test
    void jwtOfUntrustedIssuerIsInvalidToken() {
        assertError(call("Bearer " + builtInToken(ownedClaims().issuer("https://someone-else.example"))), 401, "invalid_token", "");
    }

    @Test
    void jwtForAnotherAudienceIsInvalidToken() {
        assertError(call("Bearer " + builtInToken(ownedClaims().audience("another-service"))), 401, "invalid_token", "");
    }

    @Test
    void garbageTokenIsInvalidToken() {
        assertError(call("Bearer not.a.jwt"), 401, "invalid_token", "");
        assertError(call("Bearer x"), 401, "invalid_token", "");
    }

    @Test
    void externalIssuerJwtIsAcceptedAndMapsToItsOwnOwner() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        String token = idp.token(idp.claims("alice@" + UUID.randomUUID()).build());
        http.get().uri("/api/v1/api-keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.data.api_keys.length()").isEqualTo(0);
    }

    @Test
    void externalJwtForAnotherAudienceIsInvalidToken() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        String token = idp.token(idp.claims("bob").audience("someone-else").build());
        assertError(call("Bearer " + token), 401, "invalid_token", "");
    }

    @Test
    void unreachableJwksIsAuthUnavailable() {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        idp.failing(true);
        // signed by a key the service has not cached, so it must fetch the JWKS again
        String token = Jwts.rs256(Jwts.newRsaKey(), idp.claims("carol").build());
        int fetchesBefore = idp.fetches();
        assertError(call("Bearer " + token), 503, "auth_unavailable", "");
        assertThat(idp.fetches()).isGreaterThan(fetchesBefore);
    }

    /** Claims of a real, active user of the first owner (a login token's). */
    private JWTClaimsSet.Builder ownedClaims() {
        UUID owner = jdbc().queryForObject("SELECT id FROM owner ORDER BY created_at LIMIT 1", UUID.class);
        UUID user = UUID.randomUUID();
        jdbc().update("INSERT INTO app_user (id, owner_id, email, password_hash, created_at) VALUES (?, ?, ?, 'unused', now())",
                user, owner, user + "@example.test");
        return Jwts.claims(builtInIssuer, builtInAudience, user.toString(), Instant.now())
                .claim(CallerAuthenticationManager.OWNER_CLAIM, owner.toString());
    }

    private String builtInToken(JWTClaimsSet.Builder claims) {
        JWTClaimsSet built = claims.build();
        if (built.getClaim(CallerAuthenticationManager.OWNER_CLAIM) == null) {
            built = new JWTClaimsSet.Builder(built).claim(CallerAuthenticationManager.OWNER_CLAIM, UUID.randomUUID().toString()).build();
        }
        return Jwts.rs256(tokenSigningKey, built);
    }

    private WebTestClient.ResponseSpec call(String authorization) {
        return http.get().uri(PROTECTED).header(HttpHeaders.AUTHORIZATION, authorization).exchange();
    }

    private String keyId(String key) {
        String prefix = key.substring(0, ApiKeySecret.DISPLAY_PREFIX_LENGTH);
        var list = json(http.get().uri("/api/v1/api-keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk().expectBody().returnResult());
        for (var item : list.at("/data/api_keys")) {
            if (item.get("key_prefix").asString().equals(prefix)) {
                return item.get("id").asString();
            }
        }
        throw new AssertionError("key " + prefix + " not listed");
    }
}
