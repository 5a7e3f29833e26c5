package org.agentplatform.api.instance;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A fault for the {@code local} provider's runtime to inject into the calls of {@code method}
 * ({@code *}: every method), the next {@code times} calls or (without {@code times}) until cleared.
 */
public record InjectedFault(
        String method,
        @JsonProperty("latency_ms") Long latencyMs,
        @JsonProperty("fail_with") FailWith failWith,
        @JsonProperty("never_answer") Boolean neverAnswer,
        @JsonProperty("partial_write") Boolean partialWrite,
        Integer times) {

    public record FailWith(String code, String message) {
    }
}
