package org.agentplatform.api.error;

import java.util.Map;
import org.agentplatform.kernel.error.ErrorCode;

/**
 * A refusal the API answers with the error envelope. Handlers throw it; {@link ApiErrorHandler}
 * writes it. {@code param} names the offending field path for missing_param / invalid_param.
 */
public class ApiException extends RuntimeException {

    /** What {@link #notVisibleYet} tells a client to wait: a read model that lags more than its route's wait is seconds behind. */
    static final long NOT_VISIBLE_RETRY_AFTER_SECONDS = 1;

    private final ErrorCode code;
    private final String param;
    private final Map<String, String> metadata;
    private final Long retryAfterSeconds;

    public ApiException(ErrorCode code, String message) {
        this(code, message, "", Map.of(), null);
    }

    public ApiException(ErrorCode code, String message, String param, Map<String, String> metadata, Long retryAfterSeconds) {
        super(message);
        this.code = code;
        this.param = param == null ? "" : param;
        this.metadata = Map.copyOf(metadata);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException missingParam(String param) {
        return new ApiException(ErrorCode.MISSING_PARAM, "'" + param + "' is required", param, Map.of(), null);
    }

    public static ApiException invalidParam(String param, String message) {
        return new ApiException(ErrorCode.INVALID_PARAM, message, param, Map.of(), null);
    }

    public static ApiException invalidBody(String message, String field) {
        Map<String, String> metadata = field == null || field.isEmpty() ? Map.of() : Map.of("field", field);
        return new ApiException(ErrorCode.INVALID_BODY, message, "", metadata, null);
    }

    public static ApiException notFound(String message) {
        return new ApiException(ErrorCode.NOT_FOUND, message);
    }

    /**
     * 504 {@code service_timeout} for a change the platform accepted (its events are stored) that the read model does not
     * show within the route's wait: nothing is lost, the same read (or the same request with its Idempotency-Key) answers
     * once the read model catches up, after {@code Retry-After}. {@code metadata} names the resource when the caller
     * could not know its id otherwise.
     */
    public static ApiException notVisibleYet(String what, Map<String, String> metadata) {
        return new ApiException(ErrorCode.SERVICE_TIMEOUT, what + " was accepted but is not visible yet; read it again after Retry-After",
                "", metadata, NOT_VISIBLE_RETRY_AFTER_SECONDS);
    }

    public static ApiException rateLimited(long retryAfterSeconds) {
        return new ApiException(ErrorCode.RATE_LIMITED, "Too many requests for this key on this endpoint; retry after "
                + retryAfterSeconds + "s", "", Map.of("retry_after_seconds", Long.toString(retryAfterSeconds)), retryAfterSeconds);
    }

    public ErrorCode code() {
        return code;
    }

    public String param() {
        return param;
    }

    public Map<String, String> metadata() {
        return metadata;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
