package org.agentplatform.api.auth;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import reactor.core.publisher.Mono;

/** An authenticated request: the {@link Caller} is the principal; there are no per-route authorities. */
public final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    CallerAuthentication(Caller caller) {
        super(List.of());
        this.caller = caller;
        setAuthenticated(true);
    }

    /** The caller of the request being served, for the filters after authentication; empty when it is not authenticated. */
    public static Mono<Caller> current() {
        return ReactiveSecurityContextHolder.getContext()
                .mapNotNull(context -> context.getAuthentication() != null
                        && context.getAuthentication().getPrincipal() instanceof Caller caller ? caller : null);
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
