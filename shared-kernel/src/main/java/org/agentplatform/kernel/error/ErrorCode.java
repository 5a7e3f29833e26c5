package org.agentplatform.kernel.error;

import static org.agentplatform.kernel.error.ErrorType.API_ERROR;
import static org.agentplatform.kernel.error.ErrorType.AUTHENTICATION_ERROR;
import static org.agentplatform.kernel.error.ErrorType.CONFLICT_ERROR;
import static org.agentplatform.kernel.error.ErrorType.INVALID_REQUEST_ERROR;
import static org.agentplatform.kernel.error.ErrorType.NOT_FOUND_ERROR;
import static org.agentplatform.kernel.error.ErrorType.PERMISSION_ERROR;
import static org.agentplatform.kernel.error.ErrorType.RATE_LIMIT_ERROR;
import static org.agentplatform.kernel.error.ErrorType.VALIDATION_ERROR;

import java.util.Optional;

/**
 * Every stable {@code error.code} of the contract with its HTTP status. Adding a code is a minor
 * change; renaming or removing one is a major change.
 */
public enum ErrorCode {
    INVALID_JSON("invalid_json", 400, INVALID_REQUEST_ERROR),
    INVALID_BODY("invalid_body", 400, VALIDATION_ERROR),
    INVALID_PARAM("invalid_param", 400, VALIDATION_ERROR),
    MISSING_PARAM("missing_param", 400, VALIDATION_ERROR),
    UNAUTHORIZED("unauthorized", 401, AUTHENTICATION_ERROR),
    INVALID_TOKEN("invalid_token", 401, AUTHENTICATION_ERROR),
    MISSING_TOKEN("missing_token", 401, AUTHENTICATION_ERROR),
    FORBIDDEN("forbidden", 403, PERMISSION_ERROR),
    AGENT_NOT_FOUND("agent_not_found", 404, NOT_FOUND_ERROR),
    NOT_FOUND("not_found", 404, NOT_FOUND_ERROR),
    // additive codes for HTTP-level refusals the contract's table does not name (docs/decisions.md)
    METHOD_NOT_ALLOWED("method_not_allowed", 405, INVALID_REQUEST_ERROR),
    MALFORMED_REQUEST("malformed_request", 400, INVALID_REQUEST_ERROR),
    URI_TOO_LONG("uri_too_long", 414, INVALID_REQUEST_ERROR),
    HEADERS_TOO_LARGE("headers_too_large", 431, INVALID_REQUEST_ERROR),
    HTTP_VERSION_NOT_SUPPORTED("http_version_not_supported", 505, INVALID_REQUEST_ERROR),
    NOT_ACCEPTABLE("not_acceptable", 406, INVALID_REQUEST_ERROR),
    CONFLICT("conflict", 409, CONFLICT_ERROR),
    PAYLOAD_TOO_LARGE("payload_too_large", 413, INVALID_REQUEST_ERROR),
    UNSUPPORTED_MEDIA_TYPE("unsupported_media_type", 415, INVALID_REQUEST_ERROR),
    LOGIN_REJECTED("login_rejected", 422, AUTHENTICATION_ERROR),
    RATE_LIMITED("rate_limited", 429, RATE_LIMIT_ERROR),
    INTERNAL_ERROR("internal_error", 500, API_ERROR),
    AGENT_OFFLINE("agent_offline", 503, API_ERROR),
    AGENT_SERVICE_UNAVAILABLE("agent_service_unavailable", 503, API_ERROR),
    AUTH_UNAVAILABLE("auth_unavailable", 503, API_ERROR),
    AUTH_TRANSIENT("auth_transient", 503, API_ERROR),
    REFRESH_TRANSIENT("refresh_transient", 503, API_ERROR),
    SESSION_UNAVAILABLE("session_unavailable", 503, API_ERROR),
    CONTROL_RATE_LIMIT_UNAVAILABLE("control_rate_limit_unavailable", 503, API_ERROR),
    SERVICE_TIMEOUT("service_timeout", 504, API_ERROR);

    private final String wireName;
    private final int httpStatus;
    private final ErrorType type;

    ErrorCode(String wireName, int httpStatus, ErrorType type) {
        this.wireName = wireName;
        this.httpStatus = httpStatus;
        this.type = type;
    }

    public String wireName() {
        return wireName;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public ErrorType type() {
        return type;
    }

    public static Optional<ErrorCode> fromWireName(String wireName) {
        for (ErrorCode code : values()) {
            if (code.wireName.equals(wireName)) {
                return Optional.of(code);
            }
        }
        return Optional.empty();
    }
}
