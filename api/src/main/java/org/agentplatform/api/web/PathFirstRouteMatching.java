package org.agentplatform.api.web;

import java.util.IdentityHashMap;
import java.util.Map;
import org.agentplatform.kernel.FrameworkReplacement;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The controllers' route matching, asking each route's path first, and its path's shape before its pattern. Spring
 * checks a route's method, parameters, headers, content types and version before its path, so a request to a path with
 * an id (no direct lookup) parsed its {@code Content-Type} and {@code Accept} against every one of the ~70 routes; most
 * fail on the path. Even the path pattern walks the request's path element by element; most routes are excluded sooner
 * by their literal beginning ({@code /api/v1/agents/}) and their number of segments, compared with the path as
 * received. The result is the same: a route matches only when all of its conditions do (a path with escapes or
 * matrix parameters, which the patterns match decoded, skips the shape check), and the 405/406/415 answers for a path
 * without a full match are worked out as before.
 */
@FrameworkReplacement("Spring WebFlux: RequestMappingHandlerMapping's matching of a request to a route")
public final class PathFirstRouteMatching extends RequestMappingHandlerMapping {

    /** The path of the request being looked up on this thread (the lookup asks every route about it). */
    private static final ThreadLocal<RequestPath> LOOKING_UP = new ThreadLocal<>();
    /** Marks a path the shapes cannot judge (escapes, matrix parameters). */
    private static final RequestPath UNJUDGED = new RequestPath("", -1);

    /** The shapes of each route's patterns, by the route's identity; copied on write (only while routes are first seen). */
    private volatile Map<RequestMappingInfo, Shape[]> shapes = new IdentityHashMap<>();

    /**
     * What a path must look like to match a pattern: begin with its literal part up to its first variable or wildcard,
     * and have its number of segments (at least that many, less one, for a pattern that captures the rest).
     */
    record Shape(String prefix, int segments, boolean open) {

        static Shape of(PathPattern pattern) {
            String text = pattern.getPatternString();
            int variable = text.length();
            for (char special : new char[] {'{', '*', '?'}) {
                int at = text.indexOf(special);
                if (at >= 0 && at < variable) {
                    variable = at;
                }
            }
            return new Shape(text.substring(0, variable), segmentCount(text), text.contains("**") || text.contains("{*"));
        }

        boolean admits(RequestPath path) {
            return path.text().startsWith(prefix) && (open ? path.segments() >= segments - 1 : path.segments() == segments);
        }
    }

    /** The request's path as received and its number of non-empty segments. */
    record RequestPath(String text, int segments) {
    }

    @Override
    protected HandlerMethod lookupHandlerMethod(ServerWebExchange exchange) throws Exception {
        RequestPath outer = LOOKING_UP.get();
        LOOKING_UP.set(requestPath(exchange));
        try {
            return super.lookupHandlerMethod(exchange);
        } finally {
            LOOKING_UP.set(outer);
        }
    }

    @Override
    protected RequestMappingInfo getMatchingMapping(RequestMappingInfo info, ServerWebExchange exchange) {
        RequestPath path = LOOKING_UP.get();
        if (path == null) {
            path = requestPath(exchange);
        }
        if (path != UNJUDGED && !admits(info, path)) {
            return null;
        }
        if (info.getPatternsCondition().getMatchingCondition(exchange) == null) {
            return null;
        }
        return super.getMatchingMapping(info, exchange);
    }

    private boolean admits(RequestMappingInfo info, RequestPath path) {
        Shape[] routeShapes = shapes.get(info);
        if (routeShapes == null) {
            routeShapes = info.getPatternsCondition().getPatterns().stream().map(Shape::of).toArray(Shape[]::new);
            synchronized (this) {
                Map<RequestMappingInfo, Shape[]> more = new IdentityHashMap<>(shapes);
                more.put(info, routeShapes);
                shapes = more;
            }
        }
        for (Shape shape : routeShapes) {
            if (shape.admits(path)) {
                return true;
            }
        }
        return routeShapes.length == 0;
    }

    /** The request's path, {@link #UNJUDGED} when it holds escapes or matrix parameters (the patterns match those decoded). */
    private static RequestPath requestPath(ServerWebExchange exchange) {
        String text = exchange.getRequest().getPath().pathWithinApplication().value();
        return text.indexOf('%') >= 0 || text.indexOf(';') >= 0 ? UNJUDGED : new RequestPath(text, segmentCount(text));
    }

    private static int segmentCount(String path) {
        int segments = 0;
        boolean inSegment = false;
        for (int index = 0; index < path.length(); index++) {
            boolean separator = path.charAt(index) == '/';
            if (!separator && !inSegment) {
                segments++;
            }
            inSegment = !separator;
        }
        return segments;
    }
}
