package org.agentplatform.api.web;

import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The paths reachable without a bearer token: presigned object URLs and terminal WebSockets carry their own signed
 * tickets, the login, the console's sign-in and the JWKS are how tokens are got and checked, the console's pages and
 * scripts hold no data (what they show comes from the API, signed in), health is for load balancers, and the OpenAPI
 * document and its page describe the API to anyone. Security permits exactly these; the OpenAPI document marks them public.
 */
public final class PublicPaths {

    public static final List<String> PATTERNS = List.of(
            "/api/v1/auth/login", "/api/v1/auth/session", "/console", "/console/**", "/.well-known/jwks.json", "/actuator/health",
            "/actuator/health/**", "/storage/v1/objects/**",
            "/api/v1/instances/*/terminal-sessions/*/attach", "/api/v1/openapi", "/api/v1/openapi.json", "/api/v1/openapi.yaml",
            "/api/v1/openapi/**", "/api/v1/docs", "/api/v1/swagger-ui/**");

    private static final List<PathPattern> PARSED = PATTERNS.stream().map(PathPatternParser.defaultInstance::parse).toList();

    private PublicPaths() {
    }

    /** Whether a path, or a route template such as {@code /storage/v1/objects/{fileId}}, is public. */
    public static boolean covers(String path) {
        PathContainer container = PathContainer.parsePath(path);
        return PARSED.stream().anyMatch(pattern -> pattern.matches(container));
    }
}
