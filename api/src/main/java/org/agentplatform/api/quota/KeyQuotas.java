package org.agentplatform.api.quota;

import org.agentplatform.api.auth.Caller;
import reactor.core.publisher.Mono;

/**
 * Port: the per-credential, per-endpoint quota ({@code rate_limit_per_minute}), and the login throttles. A quota is
 * a fact about its subject, not about a node: every node decides from the same shared budget. Never waits for budget
 * (a refusal is immediate).
 */
public interface KeyQuotas {

    /** One permit of {@code subject}'s quota on {@code endpoint}; the subject is a credential, or a login email. */
    Mono<Decision> acquire(String subject, String endpoint, int limitPerMinute);

    default Mono<Decision> acquire(Caller caller, String endpoint) {
        return acquire(caller.credentialId(), endpoint, caller.rateLimitPerMinute());
    }

    /**
     * @param remaining         about how many more the subject may make now
     * @param retryAfterSeconds when refused: how long until one is available again (whole seconds, at least 1)
     */
    record Decision(boolean permitted, int limit, int remaining, long retryAfterSeconds) {
    }
}
