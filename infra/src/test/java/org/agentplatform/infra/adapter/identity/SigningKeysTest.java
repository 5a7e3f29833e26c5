package org.agentplatform.infra.adapter.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import javax.crypto.SecretKey;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.Jwts;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The token signing key's private half is stored sealed with the vault key, never in clear. */
class SigningKeysTest extends ApiTest {

    @Autowired
    RSAKey tokenSigningKey;
    @Autowired
    SecretKey vaultKey;
    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void theStoredPrivateKeyIsSealed() throws Exception {
        byte[] stored = jdbc().queryForObject("SELECT private_key FROM signing_key WHERE kid = ?", byte[].class, tokenSigningKey.getKeyID());
        assertThat(SigningKeys.isSealed(stored)).isTrue();
        byte[] clear = tokenSigningKey.toRSAPrivateKey().getEncoded();
        assertThat(contains(stored, Arrays.copyOfRange(clear, clear.length - 64, clear.length))).isFalse();
    }

    @Test
    void aKeyStoredInClearByAnEarlierVersionIsSealedWhenRead() {
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            try {
                RSAKey legacy = Jwts.newRsaKey();
                jdbc().update("DELETE FROM signing_key");
                jdbc().update("INSERT INTO signing_key (kid, private_key, public_key, created_at) VALUES (?, ?, ?, ?)", legacy.getKeyID(),
                        legacy.toRSAPrivateKey().getEncoded(), legacy.toRSAPublicKey().getEncoded(), Timestamp.from(Instant.now()));
                RSAKey loaded = SigningKeys.current(jdbc(), vaultKey, Clock.systemUTC());
                assertThat(loaded.getKeyID()).isEqualTo(legacy.getKeyID());
                assertThat(loaded.toRSAPrivateKey().getEncoded()).isEqualTo(legacy.toRSAPrivateKey().getEncoded());
                byte[] now = jdbc().queryForObject("SELECT private_key FROM signing_key WHERE kid = ?", byte[].class, legacy.getKeyID());
                assertThat(SigningKeys.isSealed(now)).isTrue();
                assertThat(SigningKeys.current(jdbc(), vaultKey, Clock.systemUTC()).toRSAPrivateKey().getEncoded())
                        .isEqualTo(legacy.toRSAPrivateKey().getEncoded());
            } catch (Exception failure) {
                throw new IllegalStateException(failure);
            } finally {
                status.setRollbackOnly(); // the service's own key stays as it was
            }
        });
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }
}
