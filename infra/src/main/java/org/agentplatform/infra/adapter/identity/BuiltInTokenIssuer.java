package org.agentplatform.infra.adapter.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.auth.CallerAuthenticationManager;
import org.agentplatform.api.identity.AccessTokenIssuer;
import org.agentplatform.api.identity.UserAccount;

/** Signs user access tokens (RS256, {@code sub} = user, {@code owner_id} = owner) with the stored signing key. */
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
        Instant issuedAt = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = issuedAt.plus(ttl);
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(user.id().toString())
                .claim(CallerAuthenticationManager.OWNER_CLAIM, user.ownerId().toString())
                .issueTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .jwtID(UUID.randomUUID().toString())
                .build();
        return new IssuedToken(signer.sign(JOSEObjectType.JWT, claims), issuedAt, expiresAt);
    }

    @Override
    public Map<String, Object> publicJwks() {
        return new JWKSet(signer.publicKey()).toJSONObject();
    }
}
