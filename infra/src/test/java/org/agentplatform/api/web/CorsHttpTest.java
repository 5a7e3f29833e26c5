package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A browser app on an allowed origin ({@code agent-platform.cors.allowed-origins}) can call the API: its preflight is
 * answered before authentication, the answers name its origin and expose the headers a client acts on, an SSE stream
 * included; another origin's preflight is refused and its requests carry no CORS headers.
 */
class CorsHttpTest extends ApiTest {

    private static final String OTHER_ORIGIN = "https://elsewhere.example.test";

    @Test
    void aPreflightFromTheAllowedOriginIsAnsweredWithoutACredential() {
        preflight(CORS_ORIGIN, "authorization, content-type, last-event-id")
                .expectStatus().isOk()
                .expectHeader().valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, CORS_ORIGIN)
                .expectHeader().value(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, methods -> assertThat(methods).contains("POST"))
                .expectHeader().value(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, headers -> assertThat(headers.toLowerCase())
                        .contains("authorization").contains("content-type").contains("last-event-id"))
                .expectHeader().doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_CREDENTIALS);
    }

    @Test
    void aPreflightFromAnotherOriginIsRefused() {
        preflight(OTHER_ORIGIN, "authorization")
                .expectStatus().isForbidden()
                .expectHeader().doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN);
    }

    @Test
    void answersToTheAllowedOriginNameItAndExposeWhatAClientActsOn() {
        PlatformClient owner = stranger();
        String agent = owner.createAgent(owner.runningInstance("linux"), "cors");
        owner.get("/api/v1/agents/{a}", agent).header(HttpHeaders.ORIGIN, CORS_ORIGIN).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, CORS_ORIGIN)
                .expectHeader().value(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, exposed -> assertThat(exposed)
                        .contains("Retry-After").contains("X-Request-Id").contains("X-RateLimit-Remaining"));

        String task = owner.task(agent, "from a browser");
        owner.awaitTask(agent, task, "completed");
        EntityExchangeResult<byte[]> stream = owner.get("/api/v1/agents/{a}/tasks/{t}/events", agent, task)
                .header(HttpHeaders.ORIGIN, CORS_ORIGIN)
                .accept(MediaType.TEXT_EVENT_STREAM).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, CORS_ORIGIN)
                .expectBody().returnResult();
        assertThat(new String(stream.getResponseBody(), StandardCharsets.UTF_8)).containsPattern("event: ?done");
    }

    @Test
    void anotherOriginsRequestIsServedWithoutCorsHeaders() {
        PlatformClient owner = stranger();
        owner.get("/api/v1/instances").header(HttpHeaders.ORIGIN, OTHER_ORIGIN).exchange()
                .expectStatus().isOk()
                .expectHeader().doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN);
    }

    /** A browser's preflight from {@code origin} of a POST to a task route with the {@code headers} it would send. */
    private WebTestClient.ResponseSpec preflight(String origin, String headers) {
        return http.method(HttpMethod.OPTIONS).uri("/api/v1/agents/any/tasks")
                .header(HttpHeaders.ORIGIN, origin)
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
                .header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, headers)
                .exchange();
    }
}
