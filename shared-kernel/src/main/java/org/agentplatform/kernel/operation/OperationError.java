package org.agentplatform.kernel.operation;

/**
 * Why an operation did not succeed, as the snapshot's {@code error} shows it. {@code retryMode}:
 * {@code none} (do not retry as is), {@code safe} (retrying cannot apply the effect twice),
 * {@code after_delay} (retry after {@code context.retryAfterMs}), {@code manual} (inspect first).
 */
public record OperationError(String code, String message, EffectState effectState, String retryMode, String requestId,
        Context context) {

    public static final String RETRY_NONE = "none";
    public static final String RETRY_SAFE = "safe";
    public static final String RETRY_AFTER_DELAY = "after_delay";
    public static final String RETRY_MANUAL = "manual";

    /** Structured hints; every field may be null. */
    public record Context(String activeRuntimeEpoch, String projectionRevision, Long retryAfterMs,
            String expectedContractRevision, String resourceId) {

        public static final Context EMPTY = new Context(null, null, null, null, null);
    }
}
