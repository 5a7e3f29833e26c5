package org.agentplatform.api.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.operation.OperationQueue;
import org.agentplatform.kernel.agent.AgentCommand.AgentLocation;
import org.agentplatform.kernel.agent.AgentCommand.CheckAgentWritable;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.operation.OperationRecord;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The agent endpoints that act through the agent's runtime (skills, template, models): each runs one
 * runtime operation and waits for its outcome, which it answers as the contract says: the success body;
 * 502 with the harness error body when runtime writes failed (the applied ones stay); 504 with
 * {@code Retry-After} while the write is still applying; the error envelope otherwise.
 */
@Component
final class AgentOperations {

    private static final Set<String> NOT_FOUND = Set.of("SKILL_NOT_FOUND", "TEMPLATE_NOT_FOUND", "CRON_NOT_FOUND", "MCP_SERVER_NOT_FOUND");
    private static final Set<String> OFFLINE = Set.of("RUNTIME_STOPPED", "RUNTIME_RESTARTED", "RUNTIME_DESTROYED",
            "RUNTIME_EPOCH_MISMATCH", "RUNTIME_NOT_FOUND", "INSTANCE_UNAVAILABLE");

    private final Commands commands;
    private final OperationQueue queue;
    private final AgentAvailability availability;

    AgentOperations(Commands commands, OperationQueue queue, AgentAvailability availability) {
        this.commands = commands;
        this.queue = queue;
        this.availability = availability;
    }

    /** A write: only the agent's owner; a repeat of a write still applying waits for that one. */
    Mono<OperationRecord> write(Caller caller, ServerWebExchange exchange, AgentId agent, RuntimeMethod method,
            Map<String, Object> params, String resource) {
        return commands.<AgentLocation>send(new CheckAgentWritable(agent, caller.ownerId()), caller, exchange, ErrorCode.AGENT_NOT_FOUND)
                .flatMap(location -> availability.serving(location.instanceId())
                        .then(queue.queueOnce(caller, exchange, location.instanceId(), caller.ownerId(), method, params,
                                "agent:" + agent + ":" + resource)))
                .flatMap(queue::awaitOutcome);
    }

    /** A read through the runtime of an agent the caller may read (its own, or a public one). */
    Mono<OperationRecord> read(Caller caller, ServerWebExchange exchange, InstanceId instance, OwnerId owner, RuntimeMethod method,
            Map<String, Object> params) {
        return availability.serving(instance)
                .then(queue.queue(caller, exchange, instance, owner, method, params, null, queue.settings().syncWait()))
                .flatMap(queue::awaitOutcome);
    }

    /** The HTTP answer for a finished operation; {@code success} builds the 200 body. */
    static ResponseEntity<Object> answer(OperationRecord operation, String resource, Supplier<Object> success) {
        Map<String, Object> error = operation.error() == null ? Map.of() : operation.error();
        String code = String.valueOf(error.get("code"));
        String message = String.valueOf(error.get("message"));
        return switch (operation.status()) {
            case SUCCEEDED -> ResponseEntity.ok(success.get());
            case FAILED -> {
                if ("HARNESS_PARTIAL_WRITE".equals(code)) {
                    yield harness(message, harnessOperations(operation));
                }
                if ("AGENT_NOT_FOUND".equals(code)) {
                    throw new ApiException(ErrorCode.AGENT_NOT_FOUND, message);
                }
                if (NOT_FOUND.contains(code)) {
                    throw ApiException.notFound(message);
                }
                if (OFFLINE.contains(code)) {
                    throw new ApiException(ErrorCode.AGENT_OFFLINE, message);
                }
                if ("INVALID_PARAMS".equals(code) || "MODEL_NOT_AVAILABLE".equals(code)) {
                    throw ApiException.invalidBody(message, null);
                }
                yield harness(message, List.<Object>of(harnessOperation(operation, resource, "failed", code, message)));
            }
            case OUTCOME_UNKNOWN -> harness(message, List.<Object>of(harnessOperation(operation, resource, "unknown", code, message)));
            case EXPIRED -> throw new ApiException(ErrorCode.AGENT_OFFLINE, message);
            default -> throw new ApiException(ErrorCode.CONFLICT, "The operation ended " + operation.status().wireName() + ": " + message);
        };
    }

    private static List<Object> harnessOperations(OperationRecord operation) {
        if (operation.result() instanceof Map<?, ?> result && result.get("operations") instanceof List<?> operations) {
            return List.copyOf(operations);
        }
        return List.of();
    }

    private static Map<String, Object> harnessOperation(OperationRecord operation, String resource, String status, String code,
            String message) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("kind", operation.method().wireName());
        item.put("name", resource);
        item.put("status", status);
        item.put("code", code);
        item.put("message", message);
        return item;
    }

    /** The contract's harness error body (no {@code success} field). */
    private static ResponseEntity<Object> harness(String message, List<Object> operations) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", "harness_error");
        error.put("message", message);
        error.put("operations", operations);
        return ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.APPLICATION_JSON).body(Map.of("error", error));
    }
}
