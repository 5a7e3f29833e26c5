package org.agentplatform.infra.local;

/**
 * A fault the local runtime injects into calls of {@code method} ({@code *} for every method), the next
 * {@code times} calls (null: until cleared): a latency before the runtime acts, a failure with a given
 * code, a runtime that never answers, or a skill install that writes some files and fails the rest.
 */
public record FaultRule(
        String method,
        Long latencyMs,
        FailWith failWith,
        boolean neverAnswer,
        boolean partialWrite,
        Integer times) {

    /** The error a failing call answers. */
    public record FailWith(String code, String message) {
    }

    boolean matches(String methodName) {
        return "*".equals(method) || method.equals(methodName);
    }

    FaultRule used() {
        return new FaultRule(method, latencyMs, failWith, neverAnswer, partialWrite, times == null ? null : times - 1);
    }

    boolean isSpent() {
        return times != null && times <= 0;
    }
}
