package org.agentplatform.infra.local;

import org.agentplatform.kernel.operation.OperationError;

/** A runtime method the local runtime will not apply; it applies nothing and answers this code. */
final class RuntimeRefusal extends RuntimeException {

    private final String code;
    private final String retryMode;
    private final OperationError.Context context;

    RuntimeRefusal(String code, String message) {
        this(code, message, OperationError.RETRY_NONE, OperationError.Context.EMPTY);
    }

    RuntimeRefusal(String code, String message, String retryMode, OperationError.Context context) {
        super(message, null, false, false);
        this.code = code;
        this.retryMode = retryMode;
        this.context = context;
    }

    static RuntimeRefusal invalidParams(String message) {
        return new RuntimeRefusal("INVALID_PARAMS", message);
    }

    static RuntimeRefusal notFound(String code, String what, String resourceId) {
        return new RuntimeRefusal(code, what + " " + resourceId + " does not exist on this runtime", OperationError.RETRY_NONE,
                new OperationError.Context(null, null, null, null, resourceId));
    }

    String code() {
        return code;
    }

    String retryMode() {
        return retryMode;
    }

    OperationError.Context context() {
        return context;
    }
}
