package org.agentplatform.api.control;

import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Mono;

/**
 * Port: the owner-scoped control budget, a GCRA per (owner, bucket): continuous refill, an initial burst equal to
 * the per-minute rate. Shared by every credential, device and node of the owner. A store that fails or does not
 * answer in time errors (the caller answers 503 {@code control_rate_limit_unavailable}).
 */
public interface ControlBudget {

    /** The two budgets of the contract's Limits table. */
    enum Bucket {
        INFO("info", 300),
        ACTIONS("actions", 60);

        private final String wireName;
        private final int perMinute;

        Bucket(String wireName, int perMinute) {
            this.wireName = wireName;
            this.perMinute = perMinute;
        }

        public String wireName() {
            return wireName;
        }

        public int perMinute() {
            return perMinute;
        }
    }

    /** Takes one from the owner's bucket if it has one, deciding in one atomic step. */
    Mono<Decision> take(OwnerId owner, Bucket bucket);

    /** What is left in the owner's bucket now, taking nothing ({@code admitted} is true when one could be taken). */
    Mono<Decision> left(OwnerId owner, Bucket bucket);

    /**
     * @param remaining         what is left right after this decision
     * @param retryAfterSeconds when refused: how long until one is available again (whole seconds, rounded up)
     * @param resetSeconds      how long until the bucket is full again
     */
    record Decision(boolean admitted, int limit, int remaining, long retryAfterSeconds, long resetSeconds) {
    }
}
