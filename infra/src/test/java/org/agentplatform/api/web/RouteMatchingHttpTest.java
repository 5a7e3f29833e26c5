package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

/** A request is matched to its route once, path first, and reaches the same handler as with Spring's own matching. */
class RouteMatchingHttpTest extends ApiTest {

    /** A path variable, with its regular expression if it has one ({@code {surface:computer|mobile}}). */
    private static final Pattern VARIABLE = Pattern.compile("\\{([^}:]+)(?::([^}]+))?}");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping routes;

    @Autowired
    private DispatcherHandler dispatcher;

    @Test
    void theDispatcherAsksForTheFiltersMatchFirstAndTheControllersAreMatchedPathFirst() {
        assertThat(routes).isInstanceOf(PathFirstRouteMatching.class);
        assertThat(dispatcher.getHandlerMappings()).first().isInstanceOf(MatchedRoutes.class);
    }

    @Test
    void everyRouteIsReachedByItsOwnMethodAndPath() {
        List<String> missed = new ArrayList<>();
        routes.getHandlerMethods().forEach((info, handler) -> info.getPatternsCondition().getPatterns().forEach(pattern -> {
            for (var method : info.getMethodsCondition().getMethods()) {
                String path = VARIABLE.matcher(pattern.getPatternString()).replaceAll(variable -> variable.group(2) == null
                        ? "00000000-0000-4000-8000-000000000000" : variable.group(2).split("\\|")[0]);
                MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.valueOf(method.name()), path)
                        .header(HttpHeaders.CONTENT_TYPE, contentType(info)).header(HttpHeaders.ACCEPT, "*/*"));
                Object matched = routes.getHandler(exchange).onErrorComplete().block();
                if (!(matched instanceof HandlerMethod found) || !found.getMethod().equals(handler.getMethod())) {
                    missed.add(method + " " + path + " -> " + matched);
                }
            }
        }));
        assertThat(missed).isEmpty();
    }

    @Test
    void aPathThatMatchesOnlyOnceDecodedOrWithoutItsMatrixParametersReachesItsRouteAsWithSpringsMatching() {
        String agent = "00000000-0000-4000-8000-000000000000";
        for (String path : List.of("/api/v1/%61gents/" + agent + "/tasks", "/api/v1/agents;x=1/" + agent + "/tasks",
                "/api/v1/agents/" + agent + "/tasks")) {
            MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.GET, URI.create(path))
                    .header(HttpHeaders.ACCEPT, "*/*"));
            Object matched = routes.getHandler(exchange).onErrorComplete().block();
            assertThat(matched).as(path).isInstanceOfSatisfying(HandlerMethod.class,
                    found -> assertThat(found.getMethod().getName()).isEqualTo("list"));
        }
        MockServerWebExchange longer = MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/agents/" + agent + "/tasks/x/y")
                .header(HttpHeaders.ACCEPT, "*/*"));
        assertThat(routes.getHandler(longer).onErrorComplete().block()).isNull();
    }

    @Test
    void aKnownPathWithAnotherMethodIsStillMethodNotAllowed() {
        var response = http.patch().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange();
        response.expectHeader().value(HttpHeaders.ALLOW, allow -> assertThat(allow).contains("GET"));
        assertError(response, 405, "method_not_allowed", "");
    }

    private static String contentType(org.springframework.web.reactive.result.method.RequestMappingInfo info) {
        Set<String> consumed = info.getConsumesCondition().getConsumableMediaTypes().stream().map(Object::toString).collect(Collectors.toSet());
        return consumed.isEmpty() || consumed.contains("application/json") ? "application/json" : consumed.iterator().next();
    }
}
