package org.agentplatform.api.web;

import org.agentplatform.kernel.FrameworkReplacement;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Matches a request to its route once. A filter that needs the route before the dispatcher (the key quota
 * names its endpoint by the route template; a refused path segment is named by its route's variable) calls
 * {@link #match}; the dispatcher then asks this mapping
 * first and gets the same handler back instead of matching the request against every route again, which
 * was a tenth of the event loop's time under load. Requests no filter matched go to the usual mappings.
 */
@FrameworkReplacement("Spring WebFlux: the dispatcher's handler lookup")
public final class MatchedRoutes implements HandlerMapping, Ordered {

    private static final String MATCHED_HANDLER = MatchedRoutes.class.getName() + ".handler";

    private final RequestMappingHandlerMapping routes;

    public MatchedRoutes(RequestMappingHandlerMapping routes) {
        this.routes = routes;
    }

    /**
     * The request's handler, remembered for the dispatcher; empty when no route takes the request (its
     * 404 or 405 comes from the dispatcher). The match sets the exchange's route attributes, such as
     * {@link HandlerMapping#BEST_MATCHING_PATTERN_ATTRIBUTE}.
     */
    public Mono<Object> match(ServerWebExchange exchange) {
        Object matched = exchange.getAttribute(MATCHED_HANDLER);
        if (matched != null) {
            return Mono.just(matched);
        }
        return routes.getHandler(exchange)
                .doOnNext(handler -> exchange.getAttributes().put(MATCHED_HANDLER, handler))
                .onErrorResume(noRoute -> Mono.empty());
    }

    @Override
    public Mono<Object> getHandler(ServerWebExchange exchange) {
        Object matched = exchange.getAttribute(MATCHED_HANDLER);
        return Mono.justOrEmpty(matched);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
