package org.agentplatform.infra.adapter.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.kernel.identity.OwnerId;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The vault keeps secrets encrypted in PostgreSQL and only hands out references. */
class SecretVaultTest extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    SecretVault vault;

    @Test
    void aSealedSecretOpensAgainAndIsStoredEncrypted() {
        String reference = vault.seal(OwnerId.random(), "test", "s3cr3t-value").block(WAIT);
        assertThat(reference).startsWith("secret:").doesNotContain("s3cr3t");
        assertThat(vault.open(reference).block(WAIT)).isEqualTo("s3cr3t-value");
        String id = reference.substring("secret:".length());
        Integer plain = jdbc().queryForObject("SELECT count(*) FROM secret WHERE id = ?::uuid AND position(convert_to('s3cr3t', 'UTF8')"
                + " in ciphertext) > 0", Integer.class, id);
        assertThat(plain).isZero();
    }

    @Test
    void aCiphertextMovedToAnotherRowDoesNotOpen() {
        String first = vault.seal(OwnerId.random(), "test", "one").block(WAIT);
        String second = vault.seal(OwnerId.random(), "test", "two").block(WAIT);
        jdbc().update("UPDATE secret SET nonce = (SELECT nonce FROM secret WHERE id = ?::uuid),"
                + " ciphertext = (SELECT ciphertext FROM secret WHERE id = ?::uuid) WHERE id = ?::uuid",
                first.substring(7), first.substring(7), second.substring(7));
        assertThatThrownBy(() -> vault.open(second).block(WAIT)).isInstanceOf(IllegalStateException.class);
    }
}
