package org.agentplatform.api.terminal;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;

/**
 * Port: single-use terminal tickets, signed RS256 with the platform's key (so {@code /.well-known/jwks.json} verifies
 * them), audience {@code terminal}, valid for about a minute. A ticket is useless as an API token (another audience
 * and type); it is redeemed once, by its {@code jti}, through the Terminal aggregate.
 */
public interface TerminalTickets {

    /** @param actor who asked for it (the credential id), so the attach it allows is audited as theirs */
    Ticket issue(OwnerId owner, InstanceId instance, TerminalId terminal, String actor);

    /** What a ticket grants, once its signature, type, audience, issuer and expiry hold; {@link Refused} otherwise. */
    Grant verify(String ticket);

    record Ticket(String value, String jti, Instant expiresAt) {

        @Override
        public String toString() {
            return "Ticket[jti=" + jti + ", expiresAt=" + expiresAt + "]";
        }
    }

    record Grant(OwnerId owner, InstanceId instance, TerminalId terminal, String actor, String jti) {
    }

    /** The ticket is not one: {@code expired} tells a client to ask for a new one. */
    final class Refused extends RuntimeException {

        private final boolean expired;

        public Refused(String message, boolean expired) {
            super(message, null, false, false);
            this.expired = expired;
        }

        public boolean expired() {
            return expired;
        }
    }
}
