package org.agentplatform.kernel.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * When a failed delivery is attempted again: after attempt 1, 1 minute; 2, 5 minutes; 3, 30 minutes; 4, 2
 * hours; 5, 12 hours; after attempt 6 it is dead-lettered. The delivery aggregate applies it (each failed row
 * says its {@code next_attempt_at}); the saga's persistent deadlines keep it. Tests of the running service may
 * shorten the delays (a documented test-only setting); the contract's schedule is the default.
 */
public final class RetrySchedule {

    public static final List<Duration> CONTRACT = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30),
            Duration.ofHours(2), Duration.ofHours(12));

    private final List<Duration> delays;

    public RetrySchedule(List<Duration> delays) {
        if (delays.size() != CONTRACT.size()) {
            throw new IllegalArgumentException("The schedule has " + CONTRACT.size() + " delays (attempts 1 to 5), not " + delays.size());
        }
        this.delays = List.copyOf(delays);
    }

    public static RetrySchedule contract() {
        return new RetrySchedule(CONTRACT);
    }

    /** How long after failed attempt {@code attempt} the next one is due; empty when the schedule is exhausted. */
    public Optional<Duration> delayAfter(int attempt) {
        return attempt >= 1 && attempt <= delays.size() ? Optional.of(delays.get(attempt - 1)) : Optional.empty();
    }

    /** The most attempts a delivery gets. */
    public int maxAttempts() {
        return delays.size() + 1;
    }
}
