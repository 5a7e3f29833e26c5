package org.agentplatform.api.web;

import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The contract's per-route body limits: 1 MiB for invoke, tasks and conversations; 64 KiB for the
 * catalog, instances, webhook routes and everything else (presigned uploads carry their own limit).
 */
public final class BodyLimits {

    public static final long SMALL = 64 * 1024;
    public static final long LARGE = 1024 * 1024;

    private static final PathPatternParser PARSER = PathPatternParser.defaultInstance;
    /** The built-in object store's uploads: the presigned URL's own length is the limit, enforced by the store. */
    private static final PathPattern SIGNED_UPLOADS = PARSER.parse("/storage/v1/objects/**");
    private static final List<PathPattern> SMALL_FIRST = List.of(
            PARSER.parse("/api/v1/agents/*/tasks/*/webhooks/**"));
    private static final List<PathPattern> LARGE_ROUTES = List.of(
            PARSER.parse("/api/v1/agents/*/invoke"),
            PARSER.parse("/api/v1/agents/*/tasks/**"),
            PARSER.parse("/api/v1/agents/*/conversations/**"),
            PARSER.parse("/api/v1/tasks/**"));

    private BodyLimits() {
    }

    public static long forPath(PathContainer path) {
        if (SIGNED_UPLOADS.matches(path)) {
            return Long.MAX_VALUE;
        }
        if (SMALL_FIRST.stream().anyMatch(pattern -> pattern.matches(path))) {
            return SMALL;
        }
        return LARGE_ROUTES.stream().anyMatch(pattern -> pattern.matches(path)) ? LARGE : SMALL;
    }
}
