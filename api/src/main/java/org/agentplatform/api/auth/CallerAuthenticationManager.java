package org.agentplatform.api.auth;

import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import reactor.core.publisher.Mono;

/**
 * Turns a bearer token into a {@link Caller}: an {@code oag_} key is looked up by its SHA-256; any
 * other token must be an RS256 JWT of a trusted issuer. A store or JWKS that cannot be reached
 * answers {@code auth_unavailable}; every other refusal is {@code invalid_token}.
 */
public final class CallerAuthenticationManager implements ReactiveAuthenticationManager {

    public static final String OWNER_CLAIM = "owner_id";
    /** A console session of an API key: the key's SHA-256 (base64url), which the key store is asked for as the key would be. */
    public static final String KEY_HASH_CLAIM = "key_sha256";

    private final CredentialStore credentials;
    private final CredentialCache cache;
    private final List<TrustedIssuer> issuers;
    private final Clock clock;
    private final int jwtRateLimitPerMinute;

    public CallerAuthenticationManager(CredentialStore credentials, CredentialCache cache, List<TrustedIssuer> issuers, Clock clock,
            int jwtRateLimitPerMinute) {
        this.credentials = credentials;
        this.cache = cache;
        this.issuers = List.copyOf(issuers);
        this.clock = clock;
        this.jwtRateLimitPerMinute = jwtRateLimitPerMinute;
    }

    @Override
    public Mono<Authentication> authenticate(Authentication authentication) {
        String token = ((BearerTokenAuthenticationToken) authentication).getToken();
        Mono<Caller> caller = token.startsWith(ApiKeySecret.PREFIX) ? byApiKey(token) : byJwt(token);
        return caller.map(CallerAuthentication::new);
    }

    private Mono<Caller> byApiKey(String token) {
        if (!ApiKeySecret.isWellFormed(token)) {
            return invalid("The API key is malformed");
        }
        return byKeyHash(ApiKeySecret.sha256(token));
    }

    private Mono<Caller> byKeyHash(byte[] hash) {
        return cache.get(CredentialCache.keyHash(hash), credentials.findApiKey(hash))
                .onErrorMap(failure -> unavailable("The API key store is unreachable", failure))
                .switchIfEmpty(Mono.defer(() -> invalid("The API key is unknown")))
                .flatMap(key -> {
                    if (key.isRevoked()) {
                        return invalid("The API key has been revoked");
                    }
                    if (key.isExpiredAt(clock.instant())) {
                        return invalid("The API key has expired");
                    }
                    return Mono.just(new Caller(key.ownerId(), "key:" + key.id(), Caller.CredentialKind.API_KEY,
                            key.rateLimitPerMinute()));
                });
    }

    private Mono<Caller> byJwt(String token) {
        String issuer;
        try {
            // only a signed JWT has claims to read before decryption; an encrypted (JWE) or unsigned one is refused
            if (!(JWTParser.parse(token) instanceof SignedJWT signed) || signed.getJWTClaimsSet() == null) {
                return invalid("The token is not a signed JWT");
            }
            issuer = signed.getJWTClaimsSet().getIssuer();
        } catch (ParseException | RuntimeException notAJwt) {
            return invalid("The token is neither an oag_ key nor a JWT");
        }
        Optional<TrustedIssuer> trusted = issuers.stream().filter(candidate -> candidate.issuer().equals(issuer)).findFirst();
        if (trusted.isEmpty()) {
            return invalid("The token's issuer is not trusted");
        }
        TrustedIssuer from = trusted.get();
        return from.decoder().decode(token)
                .onErrorMap(failure -> failure instanceof BadJwtException
                        ? new AuthenticationFailure(ErrorCode.INVALID_TOKEN, "The token is invalid: " + failure.getMessage())
                        : unavailable("The token issuer's keys cannot be obtained", failure))
                .flatMap(jwt -> from.builtIn() ? builtInCaller(jwt) : externalCaller(from.issuer(), jwt));
    }

    /**
     * A login token: its subject must be an active user of the owner it names (cached like keys, so no query per request).
     * A key's console session: the key it names by hash must still be valid, and be the key and owner it names.
     */
    private Mono<Caller> builtInCaller(Jwt jwt) {
        String owner = jwt.getClaimAsString(OWNER_CLAIM);
        if (owner == null || jwt.getSubject() == null) {
            return invalid("The token lacks its owner or subject");
        }
        String keyHash = jwt.getClaimAsString(KEY_HASH_CLAIM);
        if (keyHash != null) {
            byte[] hash;
            try {
                hash = Base64.getUrlDecoder().decode(keyHash);
            } catch (IllegalArgumentException malformed) {
                return invalid("The session's key hash is malformed");
            }
            String named = "key:" + jwt.getSubject();
            return byKeyHash(hash).flatMap(caller -> caller.credentialId().equals(named) && caller.ownerId().toString().equals(owner)
                    ? Mono.just(caller)
                    : invalid("The session's key does not match the key it names"));
        }
        OwnerId claimed;
        UUID user;
        try {
            claimed = new OwnerId(UUID.fromString(owner));
            user = UUID.fromString(jwt.getSubject());
        } catch (IllegalArgumentException malformed) {
            return invalid("The token's owner or subject is malformed");
        }
        return cache.get(new BuiltInUser(user), credentials.ownerOfActiveUser(user))
                .onErrorMap(failure -> unavailable("The identity store is unreachable", failure))
                .switchIfEmpty(Mono.defer(() -> invalid("The token's user is unknown or disabled")))
                .flatMap(userOwner -> userOwner.equals(claimed)
                        ? Mono.just(new Caller(claimed, "user:" + user, Caller.CredentialKind.USER_JWT, jwtRateLimitPerMinute))
                        : invalid("The token's user does not belong to the owner it names"));
    }

    /** The cache key of a built-in user. */
    private record BuiltInUser(UUID id) {
    }

    private Mono<Caller> externalCaller(String issuer, Jwt jwt) {
        if (jwt.getSubject() == null || jwt.getSubject().isBlank()) {
            return invalid("The token has no subject");
        }
        return cache.get(new ExternalSubject(issuer, jwt.getSubject()), credentials.ownerOfExternalSubject(issuer, jwt.getSubject()))
                .onErrorMap(failure -> unavailable("The identity store is unreachable", failure))
                .map(owner -> new Caller(owner, "jwt:" + issuer + "#" + jwt.getSubject(),
                        Caller.CredentialKind.EXTERNAL_JWT, jwtRateLimitPerMinute));
    }

    /** The cache key of an external identity provider's subject. */
    private record ExternalSubject(String issuer, String subject) {
    }

    private static <T> Mono<T> invalid(String message) {
        return Mono.error(new AuthenticationFailure(ErrorCode.INVALID_TOKEN, message));
    }

    private static AuthenticationFailure unavailable(String message, Throwable cause) {
        return cause instanceof AuthenticationFailure failure
                ? failure
                : new AuthenticationFailure(ErrorCode.AUTH_UNAVAILABLE, message, cause);
    }
}
