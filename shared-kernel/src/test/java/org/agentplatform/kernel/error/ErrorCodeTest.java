package org.agentplatform.kernel.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The contract's Errors table, code by code. */
class ErrorCodeTest {

    @ParameterizedTest
    @CsvSource({
            "invalid_json, 400", "invalid_body, 400", "invalid_param, 400", "missing_param, 400",
            "unauthorized, 401", "invalid_token, 401", "missing_token, 401",
            "forbidden, 403", "agent_not_found, 404", "not_found, 404", "conflict, 409",
            "payload_too_large, 413", "login_rejected, 422", "rate_limited, 429", "internal_error, 500",
            "agent_offline, 503", "agent_service_unavailable, 503", "auth_unavailable, 503", "auth_transient, 503",
            "refresh_transient, 503", "session_unavailable, 503", "control_rate_limit_unavailable, 503",
            "service_timeout, 504"
    })
    void contractCodeHasItsStatus(String wireName, int status) {
        ErrorCode code = Arrays.stream(ErrorCode.values()).filter(candidate -> candidate.wireName().equals(wireName))
                .findFirst().orElseThrow();
        assertThat(code.httpStatus()).isEqualTo(status);
    }
}
