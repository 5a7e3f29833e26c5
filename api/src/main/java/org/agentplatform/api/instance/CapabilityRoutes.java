package org.agentplatform.api.instance;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.Capability;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.instance.InstanceReads;
import org.agentplatform.query.instance.InstanceRecord;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code GET /instances/{instanceId}/runtime-capabilities}: the runtime's manifest, fenced by its
 * runtime epoch (a manifest read at one epoch says nothing about the next); shape in docs/decisions.md.
 */
@RestController
final class CapabilityRoutes {

    static final String CONTRACT_REVISION = "2.0.0";

    private final InstanceReads instances;

    CapabilityRoutes(InstanceReads instances) {
        this.instances = instances;
    }

    @GetMapping("/api/v1/instances/{instanceId}/runtime-capabilities")
    Mono<ApiResponse<Map<String, Object>>> manifest(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId) {
        InstanceId id = PathIds.parse("instanceId", instanceId, InstanceId::new);
        return instances.find(caller.ownerId(), id)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No instance " + instanceId)))
                .map(instance -> ApiResponse.of(manifest(instance)));
    }

    private static Map<String, Object> manifest(InstanceRecord instance) {
        List<Map<String, Object>> methods = Arrays.stream(RuntimeMethod.values()).map(method -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("method", method.wireName());
            entry.put("capability", method.capability().wireName());
            entry.put("projected", method.isProjected());
            entry.put("params", method.params().stream().map(param -> Map.of("name", param.name(), "type", param.type().wireName(),
                    "required", param.required())).toList());
            return entry;
        }).toList();
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("instanceId", instance.id().toString());
        manifest.put("provider", instance.providerId());
        manifest.put("kind", instance.kind().wireName());
        manifest.put("status", instance.status().wireName());
        manifest.put("runtimeEpoch", Long.toString(instance.runtimeEpoch()));
        manifest.put("contractRevision", CONTRACT_REVISION);
        manifest.put("transport", "service");
        manifest.put("capabilities", Arrays.stream(Capability.values()).map(Capability::wireName).toList());
        manifest.put("methods", methods);
        manifest.put("fence", Map.of("runtimeEpoch", Long.toString(instance.runtimeEpoch()), "issuedAt", instance.updatedAt().toString()));
        return manifest;
    }
}
