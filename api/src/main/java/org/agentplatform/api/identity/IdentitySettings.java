package org.agentplatform.api.identity;

/**
 * Settings of authentication and the built-in identity endpoints, bound from configuration in infra.
 *
 * @param defaultKeyRateLimitPerMinute quota of a key created without {@code rate_limit_per_minute}
 * @param jwtRateLimitPerMinute        per-endpoint quota of a JWT session (JWTs carry no quota of their own)
 */
public record IdentitySettings(int defaultKeyRateLimitPerMinute, int jwtRateLimitPerMinute) {
}
