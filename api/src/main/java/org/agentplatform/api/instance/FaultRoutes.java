package org.agentplatform.api.instance;

import java.util.List;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.control.ControlAction;
import org.agentplatform.kernel.control.ControlSurface;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.instance.InstanceReads;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Fault injection for {@code local} instances, so every failure path can be exercised: latency, a
 * failing method with a given code, a runtime that never answers, a partial skill write. See README.
 */
@RestController
final class FaultRoutes {

    private static final long MAX_LATENCY_MS = 600_000;

    private final InstanceReads instances;
    private final RuntimeFaults faults;

    FaultRoutes(InstanceReads instances, RuntimeFaults faults) {
        this.instances = instances;
        this.faults = faults;
    }

    @GetMapping("/api/v1/instances/{instanceId}/faults")
    Mono<ApiResponse<Map<String, List<InjectedFault>>>> get(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId) {
        return owned(caller, instanceId).flatMap(id -> faults.faults(id)).map(rules -> ApiResponse.of(Map.of("rules", rules)));
    }

    @PutMapping(path = "/api/v1/instances/{instanceId}/faults", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ApiResponse<Map<String, List<InjectedFault>>>> replace(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @RequestBody FaultRules request) {
        List<InjectedFault> rules = Validate.present("rules", request.rules());
        for (int index = 0; index < rules.size(); index++) {
            check(rules.get(index), "rules[" + index + "]");
        }
        return owned(caller, instanceId)
                .flatMap(id -> faults.replace(id, rules).filter(Boolean::booleanValue).flatMap(replaced -> faults.faults(id)))
                .switchIfEmpty(Mono.error(() -> notLocal(instanceId)))
                .map(current -> ApiResponse.of(Map.of("rules", current)));
    }

    @DeleteMapping("/api/v1/instances/{instanceId}/faults")
    Mono<ApiResponse<Map<String, List<InjectedFault>>>> clear(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId) {
        return owned(caller, instanceId)
                .flatMap(id -> faults.replace(id, List.of()))
                .map(cleared -> ApiResponse.of(Map.of("rules", List.of())));
    }

    private Mono<InstanceId> owned(Caller caller, String instanceId) {
        InstanceId id = PathIds.parse("instanceId", instanceId, InstanceId::new);
        return instances.find(caller.ownerId(), id)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No instance " + instanceId)))
                .flatMap(instance -> faults.faults(id).map(any -> id).switchIfEmpty(Mono.error(() -> notLocal(instanceId))));
    }

    private static ApiException notLocal(String instanceId) {
        return new ApiException(ErrorCode.CONFLICT, "Instance " + instanceId + " does not run on the local provider; only local"
                + " runtimes inject faults");
    }

    private static void check(InjectedFault rule, String at) {
        if (rule == null) {
            throw ApiException.invalidBody("'" + at + "' must be an object", at);
        }
        String method = Validate.present(at + ".method", rule.method());
        if (!"*".equals(method) && RuntimeMethod.fromWireName(method).isEmpty() && !isControlAction(method)) {
            throw ApiException.invalidParam(at + ".method", "'" + at + ".method' must be *, a runtime method or a control action"
                    + " (computer/click, mobile/screenshot, ...)");
        }
        if (rule.latencyMs() != null && (rule.latencyMs() < 0 || rule.latencyMs() > MAX_LATENCY_MS)) {
            throw ApiException.invalidParam(at + ".latency_ms", "'" + at + ".latency_ms' must be 0 to " + MAX_LATENCY_MS);
        }
        if (rule.times() != null && rule.times() < 1) {
            throw ApiException.invalidParam(at + ".times", "'" + at + ".times' must be at least 1");
        }
        if (rule.failWith() != null) {
            Validate.text(at + ".fail_with.code", rule.failWith().code(), 1, 64);
        }
    }

    /** {@code <surface>/<action>}: a control action of the computer or mobile surface (screenshots included). */
    private static boolean isControlAction(String method) {
        int slash = method.indexOf('/');
        return slash > 0 && ControlSurface.fromWireName(method.substring(0, slash))
                .flatMap(surface -> ControlAction.fromWireName(method.substring(slash + 1)).filter(action -> action.belongsTo(surface)))
                .isPresent();
    }

    record FaultRules(List<InjectedFault> rules) {
    }
}
