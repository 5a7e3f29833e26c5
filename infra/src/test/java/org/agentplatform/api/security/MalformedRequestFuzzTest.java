package org.agentplatform.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Seeded, bounded fuzzing of every POST, PATCH and PUT route with malformed requests (broken and hostile JSON,
 * wrong types, odd content types, unstorable text, oversized values): never a 5xx, never a refusal without the
 * error envelope, and the service healthy afterwards. Routes that change an instance's lifecycle or faults get
 * unknown ids only, so the fuzzer does not stop the instance its other requests use.
 */
class MalformedRequestFuzzTest extends ApiTest {

    private static final long SEED = 20261123L;
    private static final int REQUESTS = 2_400;
    /** A path variable, with the alternatives of its pattern when it has one ({@code {surface:computer|mobile}}). */
    private static final Pattern VARIABLE = Pattern.compile("\\{(\\w+)(?::([\\w|]+))?}");
    private static final Pattern LIFECYCLE = Pattern.compile("/instances/\\{instanceId}/(start|stop|restart|faults)$");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping routes;

    @Test
    void malformedRequestsGetTheEnvelopeAndNeverA5xx() {
        PlatformClient owner = platform();
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "fuzzed-" + UUID.randomUUID());
        String task = owner.task(agent, "x\n/echo then=input");
        Map<String, String> known = Map.of("instanceId", instance, "agentId", agent, "taskId", task);

        List<Route> targets = new ArrayList<>();
        for (RequestMappingInfo info : routes.getHandlerMethods().keySet()) {
            for (var method : info.getMethodsCondition().getMethods()) {
                if (method.name().equals("POST") || method.name().equals("PATCH") || method.name().equals("PUT")) {
                    info.getPatternsCondition().getPatterns().forEach(pattern -> targets.add(new Route(HttpMethod.valueOf(method.name()), pattern.getPatternString())));
                }
            }
        }
        assertThat(targets).hasSizeGreaterThan(15);
        Random random = new Random(SEED);
        List<String> failures = new ArrayList<>();
        int refused = 0;
        for (int n = 0; n < REQUESTS; n++) {
            Route route = targets.get(n % targets.size());
            String path = path(route.pattern(), LIFECYCLE.matcher(route.pattern()).find() ? Map.of() : known, random);
            String contentType = CONTENT_TYPES[random.nextInt(CONTENT_TYPES.length)];
            byte[] body = body(random).getBytes(StandardCharsets.UTF_8);
            EntityExchangeResult<byte[]> result = http.method(route.method()).uri(path)
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                    .header(HttpHeaders.CONTENT_TYPE, contentType)
                    .bodyValue(body)
                    .exchange().expectBody().returnResult();
            int status = result.getStatus().value();
            String text = new String(body, StandardCharsets.UTF_8);
            String what = route.method() + " " + path + " [" + contentType + "] " + text.substring(0, Math.min(text.length(), 120))
                    + " -> " + status;
            if (status >= 500) {
                failures.add(what);
            } else if (status >= 400) {
                refused++;
                if (!enveloped(result, path)) {
                    failures.add(what + " without the envelope");
                }
            }
        }
        assertThat(failures).as("malformed requests answered badly").isEmpty();
        assertThat(refused).as("requests refused (the rest were valid by chance)").isGreaterThan(REQUESTS * 9 / 10);
        http.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("UP");
        assertThat(owner.taskView(agent, task).get("task_id").asString()).isEqualTo(task);
    }

    private record Route(HttpMethod method, String pattern) {
    }

    private static final String[] CONTENT_TYPES = {"application/json", "application/json", "application/json", "application/json; charset=utf-8",
            "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/octet-stream",
            "application/json; charset=latin1", "*/*", "application/xml"};

    private static final String[] HOSTILE = {"", "{", "}", "[]", "[{}]", "null", "true", "0", "-1", "1e309", "\"x\"", "{\"a\":", "{\"a\"}",
            "{,}", "{\"message\":null}", "{\"message\":123}", "{\"message\":{}}", "{\"message\":[]}", "{\"message\":\"a\\u0000b\"}",
            "{\"message\":\"\\ud800\"}", "{\"name\":\"\\uDFFF\"}", "{\"url\":\"javascript:alert(1)\"}", "{\"url\":\"http://[::1\"}",
            "{\"deadline_ms\":-5}", "{\"deadline_ms\":1e400}", "{\"deadline_ms\":99999999999999999999999}", "{\"timeout_ms\":\"soon\"}",
            "{\"rules\":[{\"method\":null,\"times\":-1}]}", "{\"rules\":\"all\"}", "{\"enabled\":\"yes\"}", "{\"visibility\":7}",
            "{\"files\":[{\"path\":\"../../etc/passwd\",\"content\":\"x\"}]}", "{\"files\":[{\"path\":null}]}", "{\"name\":\"" + "n".repeat(5000) + "\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"agent/create\",\"params\":[]}", "{\"jsonrpc\":\"1.0\"}", "{\"id\":[1,2,3]}",
            "{\"contentType\":\"x\",\"contentLengthBytes\":-1}", "{\"contentLengthBytes\":1e20}", "{\"attachments\":[{\"file_id\":\"../x\"}]}",
            "{\"webhooks\":[{\"url\":\"http://169.254.169.254/latest\"}],\"message\":\"x\"}", "\u0000", "\uFEFF{}", "{\"a\":1}garbage",
            "{\"a\":1,\"a\":2}", "{\"message\":\"x\",\"__proto__\":{}}", "{\"rate_limit_per_minute\":2147483648}", "{\"expires_at\":\"yesterday\"}"};

    private static String body(Random random) {
        return switch (random.nextInt(5)) {
            case 0, 1 -> HOSTILE[random.nextInt(HOSTILE.length)];
            case 2 -> "[".repeat(1 + random.nextInt(3000)) + "]".repeat(random.nextInt(3000));
            case 3 -> {
                StringBuilder bytes = new StringBuilder();
                for (int i = random.nextInt(200); i > 0; i--) {
                    bytes.append((char) random.nextInt(0x3000));
                }
                yield bytes.toString();
            }
            default -> "{\"" + HOSTILE[random.nextInt(HOSTILE.length)].replace("\"", "") + "\":" + HOSTILE[random.nextInt(HOSTILE.length)] + "}";
        };
    }

    /** The route's path with real ids, random UUIDs, or junk in its variables. */
    private static String path(String pattern, Map<String, String> known, Random random) {
        Matcher variable = VARIABLE.matcher(pattern);
        StringBuilder path = new StringBuilder();
        while (variable.find()) {
            if (variable.group(2) != null) {
                String[] alternatives = variable.group(2).split("\\|");
                variable.appendReplacement(path, alternatives[random.nextInt(alternatives.length)]);
                continue;
            }
            String value = switch (random.nextInt(4)) {
                case 0, 1 -> known.getOrDefault(variable.group(1), UUID.randomUUID().toString());
                case 2 -> UUID.randomUUID().toString();
                default -> "x" + random.nextInt(1000);
            };
            variable.appendReplacement(path, value);
        }
        variable.appendTail(path);
        return path.toString();
    }

    private static boolean enveloped(EntityExchangeResult<byte[]> result, String path) {
        try {
            JsonNode body = JSON.readTree(result.getResponseBody());
            if (path.endsWith("/methods") && body.has("jsonrpc") && body.has("error")) {
                return true; // the JSON-RPC route answers its own error objects (contract)
            }
            return !body.get("success").asBoolean(true) && !body.at("/error/code").asString("").isEmpty()
                    && !body.at("/error/request_id").asString("").isEmpty();
        } catch (RuntimeException notJson) {
            return false;
        }
    }
}
