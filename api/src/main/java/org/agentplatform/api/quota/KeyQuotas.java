package org.agentplatform.api.quota;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.agentplatform.api.auth.Caller;

/**
 * The per-credential, per-endpoint quota ({@code rate_limit_per_minute}): one Resilience4j limiter per
 * (credential, route template), refreshed every minute, never waiting (a refusal is immediate).
 */
public final class KeyQuotas {

    private final RateLimiterRegistry registry = RateLimiterRegistry.ofDefaults();

    public Decision acquire(Caller caller, String endpoint) {
        return acquire(caller.credentialId(), endpoint, caller.rateLimitPerMinute());
    }

    /** One permit of {@code subject}'s quota on {@code endpoint}; the subject is a credential, or a login email. */
    public Decision acquire(String subject, String endpoint, int limit) {
        RateLimiter limiter = registry.rateLimiter(subject + " " + endpoint + " " + limit, () -> config(limit));
        boolean permitted = limiter.acquirePermission();
        int remaining = Math.max(0, limiter.getMetrics().getAvailablePermissions());
        long retryAfterSeconds = permitted ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanosToWait(limiter)) + 1);
        return new Decision(permitted, limit, remaining, retryAfterSeconds);
    }

    private static long nanosToWait(RateLimiter limiter) {
        return limiter instanceof AtomicRateLimiter atomic
                ? atomic.getDetailedMetrics().getNanosToWait()
                : TimeUnit.MINUTES.toNanos(1);
    }

    private static RateLimiterConfig config(int limitPerMinute) {
        return RateLimiterConfig.custom()
                .limitForPeriod(limitPerMinute)
                .limitRefreshPeriod(Duration.ofMinutes(1))
                .timeoutDuration(Duration.ZERO)
                .build();
    }

    public record Decision(boolean permitted, int limit, int remaining, long retryAfterSeconds) {
    }
}
