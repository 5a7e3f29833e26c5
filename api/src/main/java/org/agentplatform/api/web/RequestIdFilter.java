package org.agentplatform.api.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * First filter of every request: fixes its request id, puts it on the response, and writes one
 * access-log line when the response commits. Never logs headers, query strings or bodies.
 */
public final class RequestIdFilter implements WebFilter, Ordered {

    private static final Logger accessLog = LoggerFactory.getLogger("org.agentplatform.access");

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String requestId = RequestIds.assign(exchange, exchange.getRequest().getHeaders().getFirst(RequestIds.HEADER));
        ServerHttpResponse response = exchange.getResponse();
        response.getHeaders().set(RequestIds.HEADER, requestId);
        long started = System.nanoTime();
        response.beforeCommit(() -> {
            response.getHeaders().set(RequestIds.HEADER, requestId);
            HttpStatusCode status = response.getStatusCode();
            accessLog.atInfo()
                    .addKeyValue("request_id", requestId)
                    .addKeyValue("method", exchange.getRequest().getMethod().name())
                    .addKeyValue("path", exchange.getRequest().getPath().value())
                    .addKeyValue("status", status == null ? 200 : status.value())
                    .addKeyValue("duration_ms", (System.nanoTime() - started) / 1_000_000)
                    .log("request");
            return Mono.empty();
        });
        return chain.filter(exchange);
    }
}
