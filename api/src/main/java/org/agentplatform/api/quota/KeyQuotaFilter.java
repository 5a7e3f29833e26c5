package org.agentplatform.api.quota;

import org.agentplatform.api.auth.CallerAuthentication;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.agentplatform.api.web.MatchedRoutes;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;

/**
 * Applies {@link KeyQuotas} after authentication. The endpoint is the matched route template
 * ({@code GET /api/v1/agents/{agentId}}), so ids in paths do not multiply limiters. Requests that
 * match no route pass through to their 404/405. The dispatcher reuses the match ({@link MatchedRoutes}). A refusal is
 * written here, not raised (an error signal travels back through every filter's assembly checkpoint).
 */
public final class KeyQuotaFilter implements WebFilter, Ordered {

    private static final String LIMIT_HEADER = "X-RateLimit-Limit";
    private static final String REMAINING_HEADER = "X-RateLimit-Remaining";

    private final KeyQuotas quotas;
    private final MatchedRoutes routes;
    private final ErrorResponseWriter refusals;

    public KeyQuotaFilter(KeyQuotas quotas, MatchedRoutes routes, ErrorResponseWriter refusals) {
        this.quotas = quotas;
        this.routes = routes;
        this.refusals = refusals;
    }

    @Override
    public int getOrder() {
        return -90; // right after Spring Security's chain (-100)
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return CallerAuthentication.current()
                .flatMap(caller -> endpoint(exchange).flatMap(endpoint -> quotas.acquire(caller, endpoint)))
                .map(decision -> {
                    exchange.getResponse().getHeaders().set(LIMIT_HEADER, Integer.toString(decision.limit()));
                    exchange.getResponse().getHeaders().set(REMAINING_HEADER, Integer.toString(decision.remaining()));
                    return decision.permitted()
                            ? Mono.defer(() -> chain.filter(exchange))
                            : refusals.write(exchange, ApiException.rateLimited(decision.retryAfterSeconds()));
                })
                // no caller (a route open to all) or no route (its 404/405 comes further on): the chain
                .defaultIfEmpty(Mono.defer(() -> chain.filter(exchange)))
                .flatMap(answer -> answer);
    }

    private Mono<String> endpoint(ServerWebExchange exchange) {
        return routes.match(exchange)
                .mapNotNull(handler -> exchange.<PathPattern>getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE))
                .map(pattern -> exchange.getRequest().getMethod().name() + " " + pattern.getPatternString());
    }
}
