package org.agentplatform.api.operation;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.operation.ParamSpec;
import org.agentplatform.kernel.operation.RuntimeMethod;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A runtime method's params, checked against the method's {@link ParamSpec}s, with secret values
 * ({@code env} and {@code headers} of {@code mcp/set}) replaced by vault references before anything is
 * queued, so secrets never reach the event store.
 */
final class MethodParams {

    private static final Set<String> SECRET_MAPS = Set.of("env", "headers");

    private MethodParams() {
    }

    /** The first problem of {@code params}, or null when they fit the method. */
    static Problem check(RuntimeMethod method, Map<String, Object> params) {
        Set<String> known = new HashSet<>();
        for (ParamSpec spec : method.params()) {
            known.add(spec.name());
            Object value = params.get(spec.name());
            if (value == null) {
                if (spec.required()) {
                    return new Problem(spec.name(), "'" + spec.name() + "' is required");
                }
            } else if (!spec.type().accepts(value)) {
                return new Problem(spec.name(), "'" + spec.name() + "' must be " + spec.type().wireName());
            }
        }
        for (String name : params.keySet()) {
            if (!known.contains(name)) {
                return new Problem(name, "'" + name + "' is not a parameter of " + method.wireName());
            }
        }
        return null;
    }

    static Mono<Map<String, Object>> sealSecrets(RuntimeMethod method, Map<String, Object> params, OwnerId owner, SecretSealer vault) {
        if (method != RuntimeMethod.MCP_SET) {
            return Mono.just(params);
        }
        Map<String, Object> sealed = new LinkedHashMap<>(params);
        return Flux.fromIterable(SECRET_MAPS)
                .filter(params::containsKey)
                .concatMap(key -> Flux.fromIterable(((Map<?, ?>) params.get(key)).entrySet())
                        .concatMap(entry -> vault.seal(owner, method.wireName() + " " + key, String.valueOf(entry.getValue()))
                                .map(reference -> Map.entry(String.valueOf(entry.getKey()), reference)))
                        .collectMap(Map.Entry::getKey, Map.Entry::getValue)
                        .doOnNext(references -> sealed.put(key, references)))
                .then(Mono.fromSupplier(() -> sealed));
    }

    record Problem(String param, String message) {

        Map<String, Object> data() {
            return Map.of("param", param, "reason", message);
        }
    }
}
