package org.agentplatform.api.identity;

import java.time.Duration;
import org.agentplatform.api.auth.BearerTokenConverter;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;

/**
 * The console's session cookie: the session token, HttpOnly (no script reads it), SameSite=Strict, on {@code /api/}
 * only (the console's pages do not carry it), Secure when the request came over HTTPS, and gone when the token ends.
 * {@link BearerTokenConverter} reads it only on same-origin requests.
 */
final class SessionCookie {

    private static final String PATH = "/api/";

    private SessionCookie() {
    }

    static ResponseCookie of(ServerWebExchange exchange, AccessTokenIssuer.IssuedToken token) {
        return builder(exchange, token.value()).maxAge(Duration.between(token.issuedAt(), token.expiresAt())).build();
    }

    static ResponseCookie cleared(ServerWebExchange exchange) {
        return builder(exchange, "").maxAge(Duration.ZERO).build();
    }

    private static ResponseCookie.ResponseCookieBuilder builder(ServerWebExchange exchange, String value) {
        boolean https = "https".equalsIgnoreCase(exchange.getRequest().getURI().getScheme()) || exchange.getRequest().getSslInfo() != null;
        return ResponseCookie.from(BearerTokenConverter.SESSION_COOKIE, value).httpOnly(true).sameSite("Strict").path(PATH).secure(https);
    }
}
