package org.agentplatform.kernel.webhook;

import java.time.Instant;

/**
 * One attempt to deliver a callback and how it went. {@code responseStatus} is 0 when no HTTP answer came
 * (refused, unreachable, timed out); {@code error} is empty on success; {@code signature} is the
 * {@code X-Service-Signature} header sent, if any (it signs a timestamp and the body, it is no secret).
 */
public record DeliveryAttempt(
        int number,
        Instant attemptedAt,
        boolean succeeded,
        int responseStatus,
        String error,
        long durationMs,
        String responseSnippet,
        String signature) {
}
