package org.agentplatform.infra.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/** The check of every response against the document can fail: a wrong shape, an undocumented status, a wrong content type. */
class OpenApiResponsesTest {

    private final OpenApiResponses document = new OpenApiResponses(Path.of("..", "docs", "openapi.json"));

    @Test
    void aResponseOfTheDocumentsShapePasses() {
        byte[] error = ("{\"success\":false,\"error\":{\"type\":\"not_found_error\",\"code\":\"agent_not_found\",\"message\":\"No agent\","
                + "\"request_id\":\"r-1\",\"param\":\"\",\"metadata\":{}}}").getBytes(StandardCharsets.UTF_8);
        assertThat(document.violations(HttpMethod.GET, "/api/v1/agents/0b7c2e1e-5b1a-4a5e-9a57-0d3c1f2e4a10", 404,
                MediaType.APPLICATION_JSON, error)).isEmpty();
    }

    @Test
    void aDeliberatelyWrongShapeFails() {
        byte[] wrong = "{\"success\":\"yes\",\"error\":[]}".getBytes(StandardCharsets.UTF_8);
        assertThat(document.violations(HttpMethod.GET, "/api/v1/agents/0b7c2e1e-5b1a-4a5e-9a57-0d3c1f2e4a10", 404,
                MediaType.APPLICATION_JSON, wrong)).isNotEmpty();
    }

    @Test
    void anUndocumentedStatusOrContentTypeFails() {
        assertThat(document.violations(HttpMethod.GET, "/api/v1/providers", 299, MediaType.APPLICATION_JSON, "{}".getBytes(StandardCharsets.UTF_8)))
                .singleElement().asString().contains("status 299 is not documented");
        assertThat(document.violations(HttpMethod.GET, "/api/v1/providers", 200, MediaType.TEXT_PLAIN, "hello".getBytes(StandardCharsets.UTF_8)))
                .isNotEmpty();
        assertThat(document.violations(HttpMethod.GET, "/api/v1/no-such-route", 200, MediaType.APPLICATION_JSON, "{}".getBytes(StandardCharsets.UTF_8)))
                .isNotEmpty();
    }

    @Test
    void eachStreamFrameIsCheckedByItsEventName() {
        String events = "/api/v1/agents/0b7c2e1e-5b1a-4a5e-9a57-0d3c1f2e4a10/tasks/1c7c2e1e-5b1a-4a5e-9a57-0d3c1f2e4a10/events";
        String status = "{\"type\":\"task_status\",\"task_id\":\"t\",\"context_id\":\"c\",\"status\":\"running\",\"final\":false,"
                + "\"timestamp\":\"2026-11-26T10:00:00Z\"}";
        assertThat(document.frameViolations(HttpMethod.GET, events, "event:task_status\ndata:" + status + "\nid:5")).isEmpty();
        assertThat(document.frameViolations(HttpMethod.GET, events, ": keep-alive")).isEmpty();
        // a status the contract does not know, a field too many, an event the stream does not send
        assertThat(document.frameViolations(HttpMethod.GET, events, "event:task_status\ndata:" + status.replace("running", "busy"))).isNotEmpty();
        assertThat(document.frameViolations(HttpMethod.GET, events, "event:task_status\ndata:" + status.replace("{", "{\"extra\":1,")))
                .isNotEmpty();
        assertThat(document.frameViolations(HttpMethod.GET, events, "event:turn_status\ndata:" + status)).singleElement().asString()
                .contains("not among the stream's events");
    }
}
