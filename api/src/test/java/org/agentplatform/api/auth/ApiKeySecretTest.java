package org.agentplatform.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ApiKeySecretTest {

    @Test
    void generatedKeysAreOagAnd64LowercaseHex() {
        ApiKeySecret key = ApiKeySecret.generate();
        assertThat(key.plaintext()).matches("oag_[0-9a-f]{64}");
        assertThat(ApiKeySecret.isWellFormed(key.plaintext())).isTrue();
        assertThat(key.displayPrefix()).hasSize(12).isEqualTo(key.plaintext().substring(0, 12));
        assertThat(ApiKeySecret.generate().plaintext()).isNotEqualTo(key.plaintext());
    }

    @Test
    void hashIsSha256() {
        // FIPS 180-2 test vector
        assertThat(HexFormat.of().formatHex(ApiKeySecret.sha256("abc")))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void toStringNeverShowsTheKey() {
        ApiKeySecret key = ApiKeySecret.generate();
        assertThat(key.toString()).doesNotContain(key.plaintext().substring(12));
    }

    @Test
    void malformedKeysAreRecognised() {
        assertThat(ApiKeySecret.isWellFormed("oag_" + "A".repeat(64))).isFalse();
        assertThat(ApiKeySecret.isWellFormed("oag_" + "a".repeat(63))).isFalse();
        assertThat(ApiKeySecret.isWellFormed("bak_" + "a".repeat(64))).isFalse();
    }
}
