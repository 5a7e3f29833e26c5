package org.agentplatform.api.auth;

import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.security.core.AuthenticationException;

/** An authentication refusal with the contract code it answers (401 unauthorized/missing_token/invalid_token, 503 auth_unavailable). */
public final class AuthenticationFailure extends AuthenticationException {

    private final ErrorCode code;

    public AuthenticationFailure(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public AuthenticationFailure(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public ApiException toApiException() {
        return new ApiException(code, getMessage());
    }
}
