package org.agentplatform.api.auth;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** An authenticated request: the {@link Caller} is the principal; there are no per-route authorities. */
final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    CallerAuthentication(Caller caller) {
        super(List.of());
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return ""; // the token is never kept on the authenticated object
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }
}
