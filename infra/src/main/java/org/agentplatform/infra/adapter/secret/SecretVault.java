package org.agentplatform.infra.adapter.secret;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import org.agentplatform.api.operation.SecretSealer;
import org.agentplatform.kernel.identity.OwnerId;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The {@code secret} table: each secret AES-256-GCM encrypted under the vault key, with its id as
 * associated data (a ciphertext moved to another row does not decrypt). Rows and events refer to a
 * secret only as {@code secret:<id>}.
 */
public final class SecretVault implements SecretSealer {

    public static final String REFERENCE_PREFIX = "secret:";

    private final DatabaseClient database;
    private final SecretKey key;
    private final Clock clock;

    public SecretVault(DatabaseClient database, SecretKey key, Clock clock) {
        this.database = database;
        this.key = key;
        this.clock = clock;
    }

    @Override
    public Mono<String> seal(OwnerId ownerId, String purpose, String plaintext) {
        UUID id = UUID.randomUUID();
        byte[] nonce = AesGcm.nonce();
        byte[] ciphertext = crypt(Cipher.ENCRYPT_MODE, id, nonce, plaintext.getBytes(StandardCharsets.UTF_8));
        return database.sql("INSERT INTO secret (id, owner_id, purpose, nonce, ciphertext, created_at)"
                        + " VALUES (:id, :owner, :purpose, :nonce, :ciphertext, :at)")
                .bind("id", id)
                .bind("owner", ownerId.value())
                .bind("purpose", purpose)
                .bind("nonce", nonce)
                .bind("ciphertext", ciphertext)
                .bind("at", clock.instant())
                .then()
                .thenReturn(REFERENCE_PREFIX + id);
    }

    /** The secret a reference stands for; empty when there is no such secret. */
    public Mono<String> open(String reference) {
        if (!reference.startsWith(REFERENCE_PREFIX)) {
            return Mono.error(new IllegalArgumentException("Not a secret reference"));
        }
        UUID id = UUID.fromString(reference.substring(REFERENCE_PREFIX.length()));
        return database.sql("SELECT nonce, ciphertext FROM secret WHERE id = :id")
                .bind("id", id)
                .map(row -> new String(crypt(Cipher.DECRYPT_MODE, id, row.get("nonce", byte[].class), row.get("ciphertext", byte[].class)),
                        StandardCharsets.UTF_8))
                .one();
    }

    private byte[] crypt(int mode, UUID id, byte[] nonce, byte[] input) {
        byte[] associatedData = id.toString().getBytes(StandardCharsets.US_ASCII);
        return mode == Cipher.ENCRYPT_MODE ? AesGcm.encrypt(key, nonce, associatedData, input) : AesGcm.decrypt(key, nonce, associatedData, input);
    }
}
