package org.agentplatform.api.instance;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * A fault for the {@code local} provider's runtime to inject into the calls of {@code method}
 * ({@code *}: every method), the next {@code times} calls or (without {@code times}) until cleared.
 */
public record InjectedFault(
        String method,
        @JsonProperty("latency_ms") @Nullable Long latencyMs,
        @JsonProperty("fail_with") @Nullable FailWith failWith,
        @JsonProperty("never_answer") @Nullable Boolean neverAnswer,
        @JsonProperty("partial_write") @Nullable Boolean partialWrite,
        @Nullable Integer times) {

    public record FailWith(String code, String message) {
    }
}
