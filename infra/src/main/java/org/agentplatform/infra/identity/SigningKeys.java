package org.agentplatform.infra.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The built-in issuer's RS256 key pair, kept in {@code signing_key} so tokens survive restarts and are
 * valid on every node. Generated on first start; concurrent first starts agree on one key.
 */
final class SigningKeys {

    private SigningKeys() {
    }

    static RSAKey current(JdbcTemplate jdbc, Clock clock) {
        List<RSAKey> stored = load(jdbc);
        if (!stored.isEmpty()) {
            return stored.getFirst();
        }
        try {
            RSAKey generated = new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
            jdbc.update("INSERT INTO signing_key (kid, private_key, public_key, created_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT DO NOTHING",
                    generated.getKeyID(), generated.toRSAPrivateKey().getEncoded(), generated.toRSAPublicKey().getEncoded(),
                    Timestamp.from(clock.instant()));
        } catch (JOSEException failure) {
            throw new IllegalStateException("Cannot generate the token signing key", failure);
        }
        return load(jdbc).getFirst();
    }

    private static List<RSAKey> load(JdbcTemplate jdbc) {
        return jdbc.query("SELECT kid, private_key, public_key FROM signing_key ORDER BY created_at, kid LIMIT 1",
                (row, index) -> rsaKey(row.getString("kid"), row.getBytes("private_key"), row.getBytes("public_key")));
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
