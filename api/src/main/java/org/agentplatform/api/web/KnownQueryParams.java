package org.agentplatform.api.web;

import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * A query parameter the route does not take is refused (400 {@code invalid_param} naming it, with the ones it takes),
 * never ignored: {@code GET /tasks?agent_id=...} used to answer every task as if the filter had been applied. A route's
 * parameters are its {@code @RequestParam}s and the components of its {@code @ParameterObject} records; only this API's
 * routes are checked (not the document's pages, nor the console's, whose query its script reads).
 */
public final class KnownQueryParams implements WebFilter, Ordered {

    private static final String ROUTES = "org.agentplatform.api.";
    /** The console's pages: their query (filters, the agent shown) is read by the page's script, not by the route. */
    private static final String CONSOLE = "org.agentplatform.api.console.";

    private final MatchedRoutes routes;
    private final ErrorResponseWriter writer;
    private final Map<HandlerMethod, Set<String>> known = new ConcurrentHashMap<>();

    public KnownQueryParams(MatchedRoutes routes, ErrorResponseWriter writer) {
        this.routes = routes;
        this.writer = writer;
    }

    @Override
    public int getOrder() {
        return -80; // after authentication (-100) and the key quota (-90): a caller learns a route's parameters only as a caller
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (exchange.getRequest().getQueryParams().isEmpty()) {
            return chain.filter(exchange);
        }
        return routes.match(exchange)
                .filter(handler -> handler instanceof HandlerMethod method && method.getBeanType().getName().startsWith(ROUTES)
                        && !method.getBeanType().getName().startsWith(CONSOLE))
                .mapNotNull(handler -> refusal(exchange, known.computeIfAbsent((HandlerMethod) handler, KnownQueryParams::paramsOf)))
                .flatMap(refusal -> writer.write(exchange, refusal).thenReturn(true))
                .switchIfEmpty(Mono.defer(() -> chain.filter(exchange)).thenReturn(true))
                .then();
    }

    /** The refusal of the first query parameter the route does not take; null when it takes them all. */
    private static ApiException refusal(ServerWebExchange exchange, Set<String> taken) {
        for (String name : exchange.getRequest().getQueryParams().keySet()) {
            if (!taken.contains(name)) {
                return ApiException.invalidParam(name, "This route takes no query parameter '" + abbreviated(name) + "'"
                        + (taken.isEmpty() ? "" : "; it takes " + String.join(", ", new TreeSet<>(taken))));
            }
        }
        return null;
    }

    private static Set<String> paramsOf(HandlerMethod method) {
        Set<String> names = new TreeSet<>();
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param != null) {
                String name = !param.name().isEmpty() ? param.name() : !param.value().isEmpty() ? param.value() : parameter.getParameter().getName();
                names.add(name);
            } else if (parameter.hasParameterAnnotation(ParameterObject.class) && parameter.getParameterType().isRecord()) {
                // a record of query parameters (PageParams): each of its components is one
                for (RecordComponent component : parameter.getParameterType().getRecordComponents()) {
                    names.add(component.getName());
                }
            }
        }
        return Set.copyOf(names);
    }

    private static String abbreviated(String name) {
        return name.length() <= 64 ? name : name.substring(0, 64) + "...";
    }
}
