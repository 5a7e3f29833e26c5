package org.agentplatform.kernel.error;

/** The contract's problem-type slugs; clients key on {@link ErrorCode}, the type only groups codes. */
public enum ErrorType {
    API_ERROR("api_error"),
    INVALID_REQUEST_ERROR("invalid_request_error"),
    AUTHENTICATION_ERROR("authentication_error"),
    PERMISSION_ERROR("permission_error"),
    RATE_LIMIT_ERROR("rate_limit_error"),
    NOT_FOUND_ERROR("not_found_error"),
    CONFLICT_ERROR("conflict_error"),
    VALIDATION_ERROR("validation_error");

    private final String wireName;

    ErrorType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
