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

    /** What a started attempt that was never recorded (its node died while sending) counts as: failed, its outcome unknown. */
    public static final String OUTCOME_UNKNOWN = "Outcome unknown: the service stopped while this attempt was being sent";

    /** Attempt {@code number}, started at {@code startedAt} and never recorded: a failure whose answer nobody saw. */
    public static DeliveryAttempt unknown(int number, Instant startedAt) {
        return new DeliveryAttempt(number, startedAt, false, 0, OUTCOME_UNKNOWN, 0, "", null);
    }
}
