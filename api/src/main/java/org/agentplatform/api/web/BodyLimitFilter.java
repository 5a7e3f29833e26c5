package org.agentplatform.api.web;

import java.util.concurrent.atomic.AtomicLong;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Refuses bodies over the route's limit: at once when Content-Length says so, otherwise as soon as
 * the streamed body crosses the limit (chunked uploads cannot slip past).
 */
public final class BodyLimitFilter implements WebFilter, Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        long limit = BodyLimits.forPath(request.getPath().pathWithinApplication());
        if (request.getHeaders().getContentLength() > limit) {
            return Mono.error(tooLarge(limit));
        }
        ServerHttpRequest limited = new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                AtomicLong seen = new AtomicLong();
                return super.getBody().map(buffer -> {
                    if (seen.addAndGet(buffer.readableByteCount()) > limit) {
                        DataBufferUtils.release(buffer);
                        throw new DataBufferLimitException("Body exceeds " + limit + " bytes");
                    }
                    return buffer;
                });
            }
        };
        return chain.filter(exchange.mutate().request(limited).build());
    }

    private static ApiException tooLarge(long limit) {
        return new ApiException(ErrorCode.PAYLOAD_TOO_LARGE,
                "The request body is larger than this route accepts (" + limit / 1024 + " KiB)");
    }
}
