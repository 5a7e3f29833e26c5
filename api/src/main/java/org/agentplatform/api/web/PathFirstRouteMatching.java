package org.agentplatform.api.web;

import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;

/**
 * The controllers' route matching, asking each route's path first. Spring checks a route's method, parameters,
 * headers, content types and version before its path, so a request to a path with an id (no direct lookup)
 * parsed its {@code Content-Type} and {@code Accept} against every one of the ~70 routes; most fail on the path,
 * the cheapest check. The result is the same: a route matches only when all of its conditions do, and the
 * 405/406/415 answers for a path without a full match are worked out as before.
 */
public final class PathFirstRouteMatching extends RequestMappingHandlerMapping {

    @Override
    protected RequestMappingInfo getMatchingMapping(RequestMappingInfo info, ServerWebExchange exchange) {
        if (info.getPatternsCondition().getMatchingCondition(exchange) == null) {
            return null;
        }
        return super.getMatchingMapping(info, exchange);
    }
}
