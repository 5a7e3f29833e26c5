package org.agentplatform.kernel.error;

import java.util.Objects;

/**
 * A command an aggregate will not carry out, with the contract code the API answers: the resource
 * is unknown to the caller, the caller may not do this, the state does not allow it, or a bound is reached.
 */
public final class CommandRefused extends RuntimeException {

    private final ErrorCode code;

    private CommandRefused(ErrorCode code, String message) {
        super(message, null, false, false);
        this.code = Objects.requireNonNull(code);
    }

    public static CommandRefused conflict(String message) {
        return new CommandRefused(ErrorCode.CONFLICT, message);
    }

    public static CommandRefused notFound(String message) {
        return new CommandRefused(ErrorCode.NOT_FOUND, message);
    }

    public static CommandRefused agentNotFound(String message) {
        return new CommandRefused(ErrorCode.AGENT_NOT_FOUND, message);
    }

    public static CommandRefused forbidden(String message) {
        return new CommandRefused(ErrorCode.FORBIDDEN, message);
    }

    /** A bound on waiting work is reached; the API answers 429 {@code rate_limited}. */
    public static CommandRefused rateLimited(String message) {
        return new CommandRefused(ErrorCode.RATE_LIMITED, message);
    }

    public ErrorCode code() {
        return code;
    }
}
