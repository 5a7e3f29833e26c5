package org.agentplatform.api.web;

import java.util.List;
import java.util.Map;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.agentplatform.api.validation.StorableText;
import org.springframework.core.Ordered;
import org.springframework.http.server.PathContainer;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses a path segment or query parameter that decodes to text PostgreSQL cannot hold ({@code %00}) with 400
 * {@code invalid_param} naming it: the query parameter's name, or the path variable of the route it would reach.
 * Runs ahead of authentication and of Spring Security's firewall, which would refuse it without the envelope.
 */
public final class StorableTextFilter implements WebFilter, Ordered {

    private final MatchedRoutes routes;
    private final ErrorResponseWriter writer;

    public StorableTextFilter(MatchedRoutes routes, ErrorResponseWriter writer) {
        this.routes = routes;
        this.writer = writer;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20; // after the request id and body limits, before security (-100)
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        for (Map.Entry<String, List<String>> param : exchange.getRequest().getQueryParams().entrySet()) {
            if (!StorableText.storable(param.getKey()) || !param.getValue().stream().allMatch(StorableText::storable)) {
                return writer.write(exchange, StorableText.refusal(param.getKey()));
            }
        }
        for (PathContainer.Element element : exchange.getRequest().getPath().pathWithinApplication().elements()) {
            if (element instanceof PathContainer.PathSegment segment && !StorableText.storable(segment.valueToMatch())) {
                return pathVariable(exchange).flatMap(name -> writer.write(exchange, StorableText.refusal(name)));
            }
        }
        return chain.filter(exchange);
    }

    /** The name of the route's path variable holding the bad segment; {@code path} when no route takes it. */
    private Mono<String> pathVariable(ServerWebExchange exchange) {
        return routes.match(exchange)
                .mapNotNull(handler -> exchange.<Map<String, String>>getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE))
                .flatMapIterable(Map::entrySet)
                .filter(variable -> !StorableText.storable(variable.getValue()))
                .map(Map.Entry::getKey)
                .next()
                .defaultIfEmpty("path");
    }
}
