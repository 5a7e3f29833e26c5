package org.agentplatform.api.identity;

import java.time.Duration;

/**
 * Settings of authentication and the built-in identity endpoints, bound from configuration in infra.
 *
 * @param defaultKeyRateLimitPerMinute quota of a key created without {@code rate_limit_per_minute}
 * @param jwtRateLimitPerMinute        per-endpoint quota of a JWT session (JWTs carry no quota of their own)
 * @param credentialCacheTtl           how long a credential found in the store is trusted without asking it again
 *                                     (a key revoked on another node stops working within it)
 */
public record IdentitySettings(int defaultKeyRateLimitPerMinute, int jwtRateLimitPerMinute, Duration credentialCacheTtl) {
}
