package org.agentplatform.infra.adapter.secret;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The vault key: {@code AGENT_PLATFORM_SECRETS_KEY} (base64 of 32 bytes; every node of a cluster needs the
 * same), else {@code <data-dir>/secret.key}, created (0600) on first start of a single node.
 */
public final class VaultKey {

    private static final int KEY_BYTES = 32;

    private VaultKey() {
    }

    public static SecretKey resolve(String configured, Path dataDir) {
        if (configured != null && !configured.isBlank()) {
            return key(Base64.getDecoder().decode(configured.strip()));
        }
        Path file = dataDir.resolve("secret.key");
        try {
            if (!Files.exists(file)) {
                byte[] fresh = new byte[KEY_BYTES];
                new SecureRandom().nextBytes(fresh);
                Files.createDirectories(dataDir);
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, Base64.getEncoder().encodeToString(fresh), StandardCharsets.US_ASCII);
            }
            return key(Base64.getDecoder().decode(Files.readString(file, StandardCharsets.US_ASCII).strip()));
        } catch (IOException failure) {
            throw new UncheckedIOException("Cannot read or create the vault key " + file, failure);
        }
    }

    private static SecretKey key(byte[] bytes) {
        if (bytes.length != KEY_BYTES) {
            throw new IllegalStateException("The vault key must be 32 bytes (base64), not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }
}
