package org.agentplatform.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    @Test
    void theHeaderIsTheHmacOfTimestampDotBodyInLowercaseHex() {
        byte[] body = "{\"type\":\"task_status\"}".getBytes(StandardCharsets.UTF_8);
        // echo -n '1700000000.{"type":"task_status"}' | openssl dgst -sha256 -hmac 'whsec-0123456789abcdef'
        assertThat(WebhookSigner.header("whsec-0123456789abcdef", 1_700_000_000L, body))
                .isEqualTo("t=1700000000,v1=8062be70c14f85129950d69a5e81eb2724ffaec3961ce0bb9b4424dc91961522");
    }

    @Test
    void anotherSecretTimestampOrBodySignsDifferently() {
        byte[] body = "a".getBytes(StandardCharsets.UTF_8);
        String header = WebhookSigner.header("secret-secret-123", 1, body);
        assertThat(WebhookSigner.header("secret-secret-124", 1, body)).isNotEqualTo(header);
        assertThat(WebhookSigner.header("secret-secret-123", 2, body)).isNotEqualTo(header);
        assertThat(WebhookSigner.header("secret-secret-123", 1, "b".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(header);
        assertThat(header).matches("t=1,v1=[0-9a-f]{64}");
    }
}
