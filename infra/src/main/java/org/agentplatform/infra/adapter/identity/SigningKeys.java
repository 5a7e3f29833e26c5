package org.agentplatform.infra.adapter.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import javax.crypto.SecretKey;
import org.agentplatform.infra.adapter.secret.AesGcm;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The built-in issuer's RS256 key pair, kept in {@code signing_key} so tokens survive restarts and are
 * valid on every node. Generated on first start; concurrent first starts agree on one key. The private key
 * is sealed with the vault key (AES-256-GCM, bound to its key id); one stored in clear by an earlier version
 * is sealed when first read.
 */
final class SigningKeys {

    private SigningKeys() {
    }

    /** Marks a sealed private key: {@code SEALED}, the nonce, then the ciphertext. */
    private static final byte[] SEALED = "AGK1".getBytes(StandardCharsets.US_ASCII);

    static RSAKey current(JdbcTemplate jdbc, SecretKey vaultKey, Clock clock) {
        List<RSAKey> stored = load(jdbc, vaultKey);
        if (!stored.isEmpty()) {
            return stored.getFirst();
        }
        try {
            RSAKey generated = new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
            jdbc.update("INSERT INTO signing_key (kid, private_key, public_key, created_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT DO NOTHING",
                    generated.getKeyID(), seal(vaultKey, generated.getKeyID(), generated.toRSAPrivateKey().getEncoded()),
                    generated.toRSAPublicKey().getEncoded(),
                    Timestamp.from(clock.instant()));
        } catch (JOSEException failure) {
            throw new IllegalStateException("Cannot generate the token signing key", failure);
        }
        return load(jdbc, vaultKey).getFirst();
    }

    private static List<RSAKey> load(JdbcTemplate jdbc, SecretKey vaultKey) {
        return jdbc.query("SELECT kid, private_key, public_key FROM signing_key ORDER BY created_at, kid LIMIT 1", (row, index) -> {
            String kid = row.getString("kid");
            byte[] stored = row.getBytes("private_key");
            if (!isSealed(stored)) {
                jdbc.update("UPDATE signing_key SET private_key = ? WHERE kid = ? AND private_key = ?", seal(vaultKey, kid, stored), kid, stored);
                return rsaKey(kid, stored, row.getBytes("public_key"));
            }
            return rsaKey(kid, open(vaultKey, kid, stored), row.getBytes("public_key"));
        });
    }

    static boolean isSealed(byte[] stored) {
        return stored.length > SEALED.length + AesGcm.NONCE_BYTES && Arrays.equals(stored, 0, SEALED.length, SEALED, 0, SEALED.length);
    }

    private static byte[] seal(SecretKey vaultKey, String kid, byte[] privateKey) {
        byte[] nonce = AesGcm.nonce();
        byte[] ciphertext = AesGcm.encrypt(vaultKey, nonce, associatedData(kid), privateKey);
        byte[] sealed = Arrays.copyOf(SEALED, SEALED.length + nonce.length + ciphertext.length);
        System.arraycopy(nonce, 0, sealed, SEALED.length, nonce.length);
        System.arraycopy(ciphertext, 0, sealed, SEALED.length + nonce.length, ciphertext.length);
        return sealed;
    }

    private static byte[] open(SecretKey vaultKey, String kid, byte[] sealed) {
        byte[] nonce = Arrays.copyOfRange(sealed, SEALED.length, SEALED.length + AesGcm.NONCE_BYTES);
        byte[] ciphertext = Arrays.copyOfRange(sealed, SEALED.length + AesGcm.NONCE_BYTES, sealed.length);
        return AesGcm.decrypt(vaultKey, nonce, associatedData(kid), ciphertext);
    }

    private static byte[] associatedData(String kid) {
        return ("signing_key:" + kid).getBytes(StandardCharsets.UTF_8);
    }

    private static RSAKey rsaKey(String kid, byte[] privateKey, byte[] publicKey) {
        try {
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            return new RSAKey.Builder((RSAPublicKey) rsa.generatePublic(new X509EncodedKeySpec(publicKey)))
                    .privateKey((RSAPrivateKey) rsa.generatePrivate(new PKCS8EncodedKeySpec(privateKey)))
                    .keyID(kid)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256)
                    .build();
        } catch (NoSuchAlgorithmException | InvalidKeySpecException failure) {
            throw new IllegalStateException("The stored token signing key " + kid + " is unreadable", failure);
        }
    }
}
