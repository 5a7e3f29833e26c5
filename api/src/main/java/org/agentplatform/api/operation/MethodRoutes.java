package org.agentplatform.api.operation;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.StorableText;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /instances/{instanceId}/methods}: a JSON-RPC 2.0 call of a runtime method. A supported call
 * queues a runtime operation and answers it at once (HTTP 202, the snapshot as {@code result}); malformed
 * JSON-RPC answers the standard codes and an unknown method {@code -32011 METHOD_NOT_SUPPORTED} (HTTP 400).
 * An unknown instance is the error envelope's 404; a destroyed or failed one, 409.
 */
@RestController
final class MethodRoutes {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final long MIN_DEADLINE_MS = 100;

    private final Commands commands;
    private final OperationQueue queue;
    private final JsonMapper json;
    private final PersonalContent content;

    MethodRoutes(Commands commands, OperationQueue queue, JsonMapper json, PersonalContent content) {
        this.content = content;
        this.commands = commands;
        this.queue = queue;
        this.json = json;
    }

    @PostMapping(path = "/api/v1/instances/{instanceId}/methods", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Object>> call(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1"))
            @RequestParam(name = "deadline_ms", required = false) String deadlineMs,
            @RequestBody(required = false) String body, ServerWebExchange exchange) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        Duration deadline = deadline(deadlineMs);
        JsonNode request;
        try {
            request = body == null ? null : json.readTree(body);
        } catch (JacksonException malformed) {
            request = null;
        }
        if (request == null || request.isMissingNode()) {
            return Mono.just(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error", null));
        }
        String unstorable = StorableText.firstUnstorable(request, "");
        if (unstorable != null) {
            throw StorableText.refusal(unstorable);
        }
        Object id = id(request);
        if (!request.isObject() || !"2.0".equals(request.path("jsonrpc").asString(null)) || !request.path("method").isString()) {
            return Mono.just(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "Invalid Request",
                    Map.of("reason", "expected {\"jsonrpc\": \"2.0\", \"id\", \"method\": string, \"params\": object}")));
        }
        String methodName = request.get("method").asString();
        RuntimeMethod method = RuntimeMethod.fromWireName(methodName).orElse(null);
        if (method == null) {
            return Mono.just(JsonRpc.error(id, JsonRpc.METHOD_NOT_SUPPORTED, "METHOD_NOT_SUPPORTED", Map.of("method", methodName,
                    "supported", Arrays.stream(RuntimeMethod.values()).map(RuntimeMethod::wireName).toList())));
        }
        JsonNode paramsNode = request.path("params");
        if (!paramsNode.isMissingNode() && !paramsNode.isNull() && !paramsNode.isObject()) {
            return Mono.just(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid params", Map.of("reason", "params must be an object")));
        }
        Map<String, Object> params = paramsNode.isObject() ? json.convertValue(paramsNode, OBJECT) : Map.of();
        MethodParams.Problem problem = MethodParams.check(method, params);
        if (problem != null) {
            return Mono.just(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid params", problem.data()));
        }
        return commands.<Readiness>send(new CheckInstanceReadiness(instance, caller.ownerId()), caller, exchange, ErrorCode.NOT_FOUND)
                .flatMap(readiness -> queue.queue(caller, exchange, instance, caller.ownerId(), method, params, null, deadline))
                .map(operation -> JsonRpc.result(id, OperationSnapshot.of(operation, content.opener(caller.ownerId()))));
    }

    private Duration deadline(String deadlineMs) {
        if (deadlineMs == null) {
            return queue.settings().defaultDeadline();
        }
        long max = queue.settings().maxDeadline().toMillis();
        try {
            long millis = Long.parseLong(deadlineMs);
            if (millis >= MIN_DEADLINE_MS && millis <= max) {
                return Duration.ofMillis(millis);
            }
        } catch (NumberFormatException malformed) {
            // answered below
        }
        throw ApiException.invalidParam("deadline_ms", "'deadline_ms' must be an integer from " + MIN_DEADLINE_MS + " to " + max);
    }

    /**
     * The request's id, echoed as it came: any JSON value (a string, a number, an object, an array, a boolean); null
     * when absent.
     */
    private static Object id(JsonNode request) {
        JsonNode id = request.path("id");
        return id.isMissingNode() || id.isNull() ? null : id;
    }
}
