package org.agentplatform.infra.adapter.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.agentplatform.api.auth.CallerAuthenticationManager;
import org.agentplatform.api.identity.AccessTokenIssuer;
import org.agentplatform.api.identity.UserAccount;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;

/**
 * Signs user access tokens (RS256, {@code sub} = user, {@code owner_id} = owner) with the stored signing key, and console
 * sessions of API keys ({@code sub} = key id, {@code key_sha256} = the key's hash).
 */
final class BuiltInTokenIssuer implements AccessTokenIssuer {

    private final PlatformSigner signer;
    private final String issuer;
    private final String audience;
    private final Duration ttl;
    private final Clock clock;

    BuiltInTokenIssuer(PlatformSigner signer, String issuer, String audience, Duration ttl, Clock clock) {
        this.signer = signer;
        this.issuer = issuer;
        this.audience = audience;
        this.ttl = ttl;
        this.clock = clock;
    }

    @Override
    public IssuedToken issue(UserAccount user) {
        return sign(user.id().toString(), user.ownerId(), UnaryOperator.identity());
    }

    @Override
    public IssuedToken issueForKey(OwnerId ownerId, ApiKeyId keyId, byte[] keySha256) {
        String hash = Base64.getUrlEncoder().withoutPadding().encodeToString(keySha256);
        return sign(keyId.value().toString(), ownerId, claims -> claims.claim(CallerAuthenticationManager.KEY_HASH_CLAIM, hash));
    }

    private IssuedToken sign(String subject, OwnerId ownerId, UnaryOperator<JWTClaimsSet.Builder> extra) {
        Instant issuedAt = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = issuedAt.plus(ttl);
        JWTClaimsSet claims = extra.apply(new JWTClaimsSet.Builder()
                        .issuer(issuer)
                        .audience(audience)
                        .subject(subject)
                        .claim(CallerAuthenticationManager.OWNER_CLAIM, ownerId.toString())
                        .issueTime(Date.from(issuedAt))
                        .expirationTime(Date.from(expiresAt))
                        .jwtID(UUID.randomUUID().toString()))
                .build();
        return new IssuedToken(signer.sign(JOSEObjectType.JWT, claims), issuedAt, expiresAt);
    }

    @Override
    public Map<String, Object> publicJwks() {
        return new JWKSet(signer.publicKey()).toJSONObject();
    }
}
