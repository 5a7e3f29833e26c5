package org.agentplatform.api.auth;

import java.util.List;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.web.server.authentication.ServerAuthenticationConverter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Reads {@code Authorization: Bearer <token>}. No header: the console's session cookie when the browser says the request
 * comes from a page of this origin ({@code Sec-Fetch-Site: same-origin}; so no other site's page, nor another port of
 * this host, can use it: no CSRF), else no credentials (the entry point answers {@code unauthorized}); an empty header
 * or an empty token: {@code missing_token}; another scheme: {@code unauthorized}. The scheme is matched
 * case-insensitively (RFC 9110).
 */
public final class BearerTokenConverter implements ServerAuthenticationConverter {

    /** The console's session cookie: a short-lived platform token, HttpOnly and SameSite=Strict ({@code SessionCookie}). */
    public static final String SESSION_COOKIE = "agent_platform_session";
    private static final String SCHEME = "Bearer";

    @Override
    public Mono<Authentication> convert(ServerWebExchange exchange) {
        List<String> values = exchange.getRequest().getHeaders().get(HttpHeaders.AUTHORIZATION);
        if (values == null || values.isEmpty()) {
            return sessionCookie(exchange);
        }
        String header = values.getFirst().strip();
        if (header.isEmpty()) {
            return Mono.error(new AuthenticationFailure(ErrorCode.MISSING_TOKEN, "The Authorization header is empty"));
        }
        int space = header.indexOf(' ');
        String scheme = space < 0 ? header : header.substring(0, space);
        if (!scheme.equalsIgnoreCase(SCHEME)) {
            return Mono.error(new AuthenticationFailure(ErrorCode.UNAUTHORIZED,
                    "The Authorization header must use the Bearer scheme"));
        }
        String token = space < 0 ? "" : header.substring(space + 1).strip();
        if (token.isEmpty()) {
            return Mono.error(new AuthenticationFailure(ErrorCode.MISSING_TOKEN, "The bearer token is empty"));
        }
        return Mono.just(new BearerTokenAuthenticationToken(token));
    }

    private static Mono<Authentication> sessionCookie(ServerWebExchange exchange) {
        HttpCookie cookie = exchange.getRequest().getCookies().getFirst(SESSION_COOKIE);
        if (cookie == null || cookie.getValue().isBlank()
                || !"same-origin".equals(exchange.getRequest().getHeaders().getFirst("Sec-Fetch-Site"))) {
            return Mono.empty();
        }
        return Mono.just(new BearerTokenAuthenticationToken(cookie.getValue()));
    }
}
