package org.agentplatform.api.error;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The contract's {@code ErrorResponse}: every non-2xx body unless the contract states another shape. */
public record ErrorEnvelope(boolean success, Body error) {

    public static ErrorEnvelope of(Body body) {
        return new ErrorEnvelope(false, body);
    }

    public record Body(
            String type,
            String code,
            String message,
            @JsonProperty("request_id") String requestId,
            String param,
            Map<String, String> metadata) {
    }
}
