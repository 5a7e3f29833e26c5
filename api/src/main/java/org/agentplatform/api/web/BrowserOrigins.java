package org.agentplatform.api.web;

import java.time.Duration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.cors.reactive.DefaultCorsProcessor;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;
import org.springframework.web.server.ServerWebExchange;

/**
 * CORS for browser apps on other origins ({@code agent-platform.cors.allowed-origins}; none by default): a preflight from
 * an allowed origin is answered before authentication (it carries no credential) and may send {@code Authorization},
 * {@code Content-Type}, {@code Last-Event-ID}, {@code Idempotency-Key} and {@code X-Request-Id}; an answer to an allowed
 * origin names it and exposes the headers a client acts on ({@code Retry-After}, {@code X-Request-Id},
 * {@code X-RateLimit-*}, {@code Location}, {@code ETag}, {@code Content-Disposition}). No cookies are involved (the API's
 * credential is a bearer token), so credentials are not allowed. A preflight from any other origin is refused (403, no
 * body: a browser shows a preflight's body to nobody); an actual request from one is served without CORS headers, so the
 * browser keeps its answer from the page, as it does for an origin the API never heard of.
 */
public final class BrowserOrigins {

    static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE");
    static final List<String> REQUEST_HEADERS = List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.CONTENT_TYPE, StreamResume.HEADER,
            "Idempotency-Key", RequestIds.HEADER);
    static final List<String> EXPOSED_HEADERS = List.of(HttpHeaders.RETRY_AFTER, RequestIds.HEADER, "X-RateLimit-Limit",
            "X-RateLimit-Remaining", "X-RateLimit-Reset", HttpHeaders.LOCATION, HttpHeaders.ETAG, HttpHeaders.CONTENT_DISPOSITION);

    private BrowserOrigins() {
    }

    /** Every path, for the origins given (exact {@code scheme://host[:port]} values). */
    public static UrlBasedCorsConfigurationSource source(List<String> allowedOrigins) {
        CorsConfiguration configuration = new CorsConfiguration();
        configuration.setAllowedOrigins(List.copyOf(allowedOrigins));
        configuration.setAllowedMethods(METHODS);
        configuration.setAllowedHeaders(REQUEST_HEADERS);
        configuration.setExposedHeaders(EXPOSED_HEADERS);
        configuration.setAllowCredentials(false);
        configuration.setMaxAge(Duration.ofMinutes(10));
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/**", configuration);
        return source;
    }

    /** Spring's processor, except that only a preflight is refused; an actual request of another origin goes on without CORS headers. */
    public static final class Processor extends DefaultCorsProcessor {

        @Override
        public boolean process(CorsConfiguration configuration, ServerWebExchange exchange) {
            String origin = exchange.getRequest().getHeaders().getOrigin();
            if (configuration != null && origin != null && !CorsUtils.isPreFlightRequest(exchange.getRequest())
                    && configuration.checkOrigin(origin) == null) {
                return true;
            }
            return super.process(configuration, exchange);
        }
    }
}
