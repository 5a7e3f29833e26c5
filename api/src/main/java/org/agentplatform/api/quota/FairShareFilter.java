package org.agentplatform.api.quota;

import org.agentplatform.api.auth.CallerAuthentication;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.agentplatform.api.web.MatchedRoutes;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;

/**
 * Holds a task create to its owner's share of the node ({@link FairShare}) before its body is read: a create past the
 * share is refused 429 {@code rate_limited} having cost its connection, its authentication and its key's quota, not the
 * decoding of its body, the agent's read and the sealing of its message (a flooding owner's refusals run on the event
 * loops every other owner's requests need). A refused create is therefore refused whatever its body holds; one within its
 * share goes on to its validation, its agent and its owner's backlog bound ({@link OwnerBacklog}). The refusal is written
 * here, not raised: an error signal would travel back through every filter's assembly checkpoint to the exception handler,
 * which a flood's refusals paid on those same event loops.
 */
public final class FairShareFilter implements WebFilter, Ordered {

    /** The route whose requests are held to the shares: task create (invokes and messages are interactive, bounded apart). */
    static final String TASK_CREATE = "/api/v1/agents/{agentId}/tasks";

    private final FairShare shares;
    private final MatchedRoutes routes;
    private final ErrorResponseWriter refusals;

    public FairShareFilter(FairShare shares, MatchedRoutes routes, ErrorResponseWriter refusals) {
        this.shares = shares;
        this.routes = routes;
        this.refusals = refusals;
    }

    @Override
    public int getOrder() {
        return -89; // right after the key's quota (KeyQuotaFilter)
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (exchange.getRequest().getMethod() != HttpMethod.POST) {
            return chain.filter(exchange);
        }
        // the refusal's answer, or else the rest of the chain (a written answer completes empty: no switchIfEmpty after it)
        return routes.match(exchange)
                .filter(handler -> isTaskCreate(exchange))
                .flatMap(handler -> CallerAuthentication.current())
                .mapNotNull(caller -> shares.refusal(caller.ownerId()))
                .map(refused -> refusals.write(exchange, refused))
                .defaultIfEmpty(Mono.defer(() -> chain.filter(exchange)))
                .flatMap(answer -> answer);
    }

    /** Whether the route the request matched ({@link MatchedRoutes#match}) is task create's. */
    private static boolean isTaskCreate(ServerWebExchange exchange) {
        return exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof PathPattern route
                && route.getPatternString().equals(TASK_CREATE);
    }
}
