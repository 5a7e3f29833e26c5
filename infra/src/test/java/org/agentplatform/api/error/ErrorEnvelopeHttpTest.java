package org.agentplatform.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.UnexpectedFaultRoute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/** Every HTTP-level refusal answers the error envelope with the contract's code, status and param. */
@ExtendWith(OutputCaptureExtension.class)
class ErrorEnvelopeHttpTest extends ApiTest {

    private static final String KEYS = "/api/v1/api-keys";

    @Test
    void unknownRouteIsNotFound() {
        assertError(authorized(http.get().uri("/api/v1/no-such-thing")).exchange(), 404, "not_found", "");
    }

    @Test
    void wrongMethodIsMethodNotAllowedWithAllow() {
        var response = authorized(http.delete().uri("/api/v1/providers")).exchange();
        response.expectHeader().valueEquals(HttpHeaders.ALLOW, "GET");
        assertError(response, 405, "method_not_allowed", "");
    }

    @Test
    void wrongContentTypeIsUnsupportedMediaType() {
        assertError(authorized(http.post().uri(KEYS)).contentType(MediaType.TEXT_PLAIN).bodyValue("name=x").exchange(),
                415, "unsupported_media_type", "");
    }

    @Test
    void malformedJsonIsInvalidJson() {
        assertError(postKey("{\"name\": \"x\""), 400, "invalid_json", "");
        assertError(postKey("not json at all"), 400, "invalid_json", "");
    }

    @Test
    void emptyBodyIsInvalidJson() {
        assertError(authorized(http.post().uri(KEYS)).contentType(MediaType.APPLICATION_JSON).exchange(), 400, "invalid_json", "");
    }

    @Test
    void unknownFieldIsInvalidBody() {
        JsonNode error = assertError(postKey("{\"name\": \"x\", \"colour\": \"red\"}"), 400, "invalid_body", "");
        assertThat(error.at("/metadata/field").asString()).isEqualTo("colour");
    }

    @Test
    void wrongJsonTypeIsInvalidBody() {
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": \"lots\"}"), 400, "invalid_body", "");
        assertError(postKey("{\"name\": [\"x\"]}"), 400, "invalid_body", "");
        assertError(postKey("[1, 2]"), 400, "invalid_body", "");
    }

    @Test
    void scalarsAreNeverCoercedToAnotherType() {
        Map<String, String> wrong = Map.of(
                "{\"name\": true}", "name",
                "{\"name\": 12345}", "name",
                "{\"name\": 1.5}", "name",
                "{\"name\": \"x\", \"rate_limit_per_minute\": 5.7}", "rate_limit_per_minute",
                "{\"name\": \"x\", \"rate_limit_per_minute\": \"5\"}", "rate_limit_per_minute",
                "{\"name\": \"x\", \"rate_limit_per_minute\": \"\"}", "rate_limit_per_minute",
                "{\"name\": \"x\", \"rate_limit_per_minute\": \"\\u0000\"}", "rate_limit_per_minute");
        wrong.forEach((body, field) -> {
            JsonNode error = assertError(postKey(body), 400, "invalid_body", "");
            assertThat(error.at("/metadata/field").asString()).as(body).isEqualTo(field);
        });
        // an integer field takes integers as written: 5.0 is refused like 5.7 (docs/api-conventions.md)
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": 5.0}"), 400, "invalid_body", "");
    }

    @Test
    void numbersOfAnySizeAreAnsweredNeverA500() {
        // an integer beyond what the field holds is a value out of range, like one below its minimum
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": 2147483648}"), 400, "invalid_param", "rate_limit_per_minute");
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": 99999999999999999999999}"), 400, "invalid_param", "rate_limit_per_minute");
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": -1}"), 400, "invalid_param", "rate_limit_per_minute");
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": 1e400}"), 400, "invalid_body", "");
        for (String offset : List.of("9223372036854775807", "9223372036854775808", "99999999999999999999999999", "-1")) {
            assertThat(authorized(http.get().uri("/api/v1/tasks?since=" + offset)).exchange().returnResult(String.class).getStatus().value())
                    .as(offset).isIn(200, 400);
        }
        assertError(authorized(http.get().uri("/api/v1/tasks?limit=99999999999999999999")).exchange(), 400, "invalid_param", "limit");
    }

    @Test
    void aQueryParameterTheRouteDoesNotTakeIsInvalidParamNamingIt() {
        // the inbox's filter is agentId (the contract's name): agent_id was ignored and every task answered
        JsonNode error = assertError(authorized(http.get().uri("/api/v1/tasks?agent_id=" + java.util.UUID.randomUUID())).exchange(),
                400, "invalid_param", "agent_id");
        assertThat(error.at("/message").asString()).contains("agentId");
        assertError(authorized(http.get().uri("/api/v1/providers?verbose=1")).exchange(), 400, "invalid_param", "verbose");
        authorized(http.get().uri("/api/v1/tasks?limit=5&agentId=" + java.util.UUID.randomUUID())).exchange().expectStatus().isOk();
    }

    @Test
    void missingRequiredFieldIsMissingParam() {
        assertError(postKey("{}"), 400, "missing_param", "name");
        assertError(postKey("{\"rate_limit_per_minute\": 5}"), 400, "missing_param", "name");
    }

    @Test
    void rejectedValuesAreInvalidParamNamingTheField() {
        assertError(postKey("{\"name\": \"\"}"), 400, "invalid_param", "name");
        assertError(postKey("{\"name\": \"x\", \"rate_limit_per_minute\": 0}"), 400, "invalid_param", "rate_limit_per_minute");
        assertError(postKey("{\"name\": \"x\", \"expires_at\": \"next tuesday\"}"), 400, "invalid_param", "expires_at");
        assertError(postKey("{\"name\": \"x\", \"expires_at\": \"2001-01-01T00:00:00Z\"}"), 400, "invalid_param", "expires_at");
        assertError(postKey("{\"name\": \"" + "n".repeat(129) + "\"}"), 400, "invalid_param", "name");
    }

    @Test
    void rejectedPathParameterIsInvalidParam() {
        assertError(authorized(http.delete().uri(KEYS + "/not-a-uuid")).exchange(), 400, "invalid_param", "keyId");
    }

    @Test
    void bodyOverTheSmallLimitIsPayloadTooLarge() {
        String big = "{\"name\": \"" + "x".repeat(64 * 1024) + "\"}";
        assertError(postKey(big), 413, "payload_too_large", "");
        assertError(authorized(http.method(HttpMethod.GET).uri("/api/v1/providers"))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(big).exchange(), 413, "payload_too_large", "");
    }

    @Test
    void chunkedBodyOverTheLimitIsPayloadTooLarge() {
        byte[] chunk = new byte[16 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        Flux<DataBuffer> body = Flux.range(0, 8).map(i -> DefaultDataBufferFactory.sharedInstance.wrap(chunk.clone()));
        assertError(authorized(http.post().uri(KEYS)).contentType(MediaType.APPLICATION_JSON)
                .body(body, DataBuffer.class).exchange(), 413, "payload_too_large", "");
    }

    @Test
    void largeRoutesAcceptAMebibyteAndRefuseMore() {
        String withinLarge = "{\"message\":\"" + "a".repeat(900 * 1024) + "\"}";
        // a body within the limit reaches the route, which does not know agent a1
        assertError(authorized(http.post().uri("/api/v1/agents/a1/invoke")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(withinLarge).exchange(), 404, "agent_not_found", "");
        byte[] overLarge = new byte[1024 * 1024 + 1];
        Arrays.fill(overLarge, (byte) 'a');
        assertError(authorized(http.post().uri("/api/v1/agents/a1/invoke")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(overLarge).exchange(), 413, "payload_too_large", "");
        assertError(authorized(http.post().uri("/api/v1/agents/a1/tasks/t1/webhooks")).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(withinLarge).exchange(), 413, "payload_too_large", "");
    }

    @Test
    void unexpectedFaultIsInternalErrorWithoutDetailsAndLoggedWithTheRequestId(CapturedOutput output) {
        var response = authorized(http.get().uri(UnexpectedFaultRoute.PATH)).header("X-Request-Id", "fault-probe-1").exchange();
        byte[] body = response.expectStatus().isEqualTo(500).expectBody().returnResult().getResponseBody();
        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain(UnexpectedFaultRoute.SECRET_DETAIL).doesNotContain("Exception").doesNotContain("at org.");
        JsonNode error = JSON.readTree(body).get("error");
        assertThat(error.get("code").asString()).isEqualTo("internal_error");
        assertThat(error.get("request_id").asString()).isEqualTo("fault-probe-1");
        assertThat(output.getAll()).contains("fault-probe-1").contains(UnexpectedFaultRoute.SECRET_DETAIL);
    }

    @Test
    void credentialsNeverReachTheLogs(CapturedOutput output) {
        // the first start prints the first key to the console once, by design; judge only what these requests log
        int before = output.getAll().length();
        String key = firstKey();
        String unknownKey = ApiKeySecret.generate().plaintext();
        authorized(http.get().uri("/api/v1/providers")).exchange().expectStatus().isOk();
        http.get().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + unknownKey).exchange()
                .expectStatus().isUnauthorized();
        http.post().uri("/api/v1/auth/login").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"email\": \"who@example.test\", \"password\": \"pw-that-must-not-leak\"}").exchange()
                .expectStatus().isEqualTo(422);
        String created = createKey(Map.of("name", "log probe"));
        assertThat(output.getAll().substring(before)).contains("request_id")
                .doesNotContain(key).doesNotContain(unknownKey).doesNotContain(created).doesNotContain("pw-that-must-not-leak");
    }

    @Test
    void saneRequestIdIsEchoed() {
        authorized(http.get().uri("/api/v1/providers")).header("X-Request-Id", "client-req.42:a")
                .exchange().expectHeader().valueEquals("X-Request-Id", "client-req.42:a");
        var error = assertError(authorized(http.get().uri("/api/v1/nothing-here")).header("X-Request-Id", "trace-7").exchange(),
                404, "not_found", "");
        assertThat(error.get("request_id").asString()).isEqualTo("trace-7");
    }

    @Test
    void insaneOrMissingRequestIdIsReplaced() {
        String generated = authorized(http.get().uri("/api/v1/providers")).exchange()
                .expectStatus().isOk().returnResult(String.class).getResponseHeaders().getFirst("X-Request-Id");
        assertThat(generated).startsWith("req_");
        String replaced = authorized(http.get().uri("/api/v1/providers")).header("X-Request-Id", "has spaces <script>")
                .exchange().returnResult(String.class).getResponseHeaders().getFirst("X-Request-Id");
        assertThat(replaced).startsWith("req_");
        String tooLong = authorized(http.get().uri("/api/v1/providers")).header("X-Request-Id", "r".repeat(129))
                .exchange().returnResult(String.class).getResponseHeaders().getFirst("X-Request-Id");
        assertThat(tooLong).startsWith("req_");
    }

    @Test
    void requestIdIsOnUnauthenticatedRefusalsToo() {
        assertError(http.get().uri("/api/v1/providers").header("X-Request-Id", "anon-1").exchange(), 401, "unauthorized", "");
    }

    @Test
    void headAndUnknownHttpVersionsAreFramedAsHttpSays() throws Exception {
        // a HEAD the decoder refuses: the envelope's length alone, never beside chunked framing
        String head = rawExchange("HEAD /api/v1/agents/{ HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(head).startsWith("HTTP/1.1 400 ").containsIgnoringCase("content-length:").doesNotContainIgnoringCase("transfer-encoding");
        assertThat(head.substring(head.indexOf("\r\n\r\n") + 4)).as("a HEAD answer has no body").isEmpty();
        // a version this server does not speak: 505 in one it does, with the envelope, never HTTP/9.9 200
        String future = rawExchange("GET /api/v1/providers HTTP/9.9\r\nHost: x\r\nAuthorization: Bearer " + firstKey() + "\r\n\r\n");
        assertThat(future).startsWith("HTTP/1.1 505 ");
        JsonNode error = JSON.readTree(future.substring(future.indexOf("\r\n\r\n") + 4)).get("error");
        assertThat(error.get("code").asString()).isEqualTo("http_version_not_supported");
        assertThat(rawExchange("GET /api/v1/providers HTTP/1.0\r\nAuthorization: Bearer " + firstKey() + "\r\n\r\n")).startsWith("HTTP/1.0 200 ");
    }

    /** Sends the request as written on a connection of its own and answers everything the server sent until it closed. */
    private String rawExchange(String request) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((request.endsWith("\r\n\r\n") && !request.contains("Connection:")
                    ? request.substring(0, request.length() - 2) + "Connection: close\r\n\r\n" : request).getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private WebTestClient.ResponseSpec postKey(String json) {
        return authorized(http.post().uri(KEYS)).contentType(MediaType.APPLICATION_JSON).bodyValue(json).exchange();
    }

    private <S extends WebTestClient.RequestHeadersSpec<?>> S authorized(S request) {
        request.header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey());
        return request;
    }
}
