package org.agentplatform.api.error;

import org.agentplatform.api.web.RequestIds;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** Writes an {@link ApiException} as the error envelope; shared by the exception handler and the security chain. */
public final class ErrorResponseWriter {

    private final JsonMapper jsonMapper;

    public ErrorResponseWriter(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    public Mono<Void> write(ServerWebExchange exchange, ApiException error) {
        return write(exchange, error, HttpHeaders.EMPTY);
    }

    public Mono<Void> write(ServerWebExchange exchange, ApiException error, HttpHeaders extraHeaders) {
        String requestId = RequestIds.of(exchange);
        byte[] bytes = body(error, requestId);

        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatusCode.valueOf(error.code().httpStatus()));
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setContentLength(bytes.length);
        headers.set(RequestIds.HEADER, requestId);
        headers.addAll(extraHeaders);
        if (error.retryAfterSeconds() != null) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(error.retryAfterSeconds()));
        }
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }

    /** The envelope of {@code error} as JSON bytes. */
    public byte[] body(ApiException error, String requestId) {
        return jsonMapper.writeValueAsBytes(ErrorEnvelope.of(new ErrorEnvelope.Body(error.code().type().wireName(), error.code().wireName(),
                error.getMessage(), requestId, error.param(), error.metadata())));
    }
}
