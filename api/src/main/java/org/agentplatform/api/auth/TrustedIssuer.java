package org.agentplatform.api.auth;

import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

/**
 * An issuer whose RS256 JWTs this service accepts: the built-in one (login) or an external identity
 * provider. The decoder checks signature, algorithm, expiry, issuer and audience.
 */
public record TrustedIssuer(String issuer, ReactiveJwtDecoder decoder, boolean builtIn) {
}
