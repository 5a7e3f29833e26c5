package org.agentplatform.infra.adapter.secret;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.agentplatform.kernel.RandomIds;

/**
 * AES-256-GCM under the vault key, with associated data binding a ciphertext to where it is kept.
 * <p>
 * Each thread keeps its own cipher, and nonces come from each thread's own generator ({@link RandomIds}): a cipher looked up
 * by name for every text cost more than sealing it (the providers are searched each time, and a new cipher expands its key
 * again where a reused one skips that while the key is the same), and the platform's default generator serialises every
 * thread on one lock. Sealing runs for every message, chunk and answer, on the event loops too.
 */
public final class AesGcm {

    public static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(AesGcm::cipher);

    private AesGcm() {
    }

    public static byte[] nonce() {
        return RandomIds.bytes(NONCE_BYTES);
    }

    public static byte[] encrypt(SecretKey key, byte[] nonce, byte[] associatedData, byte[] plaintext) {
        return crypt(Cipher.ENCRYPT_MODE, key, nonce, associatedData, plaintext);
    }

    public static byte[] decrypt(SecretKey key, byte[] nonce, byte[] associatedData, byte[] ciphertext) {
        return crypt(Cipher.DECRYPT_MODE, key, nonce, associatedData, ciphertext);
    }

    private static byte[] crypt(int mode, SecretKey key, byte[] nonce, byte[] associatedData, byte[] input) {
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData);
            return cipher.doFinal(input);
        } catch (GeneralSecurityException failure) {
            throw new IllegalStateException("Cannot " + (mode == Cipher.ENCRYPT_MODE ? "seal" : "open") + " a secret with the vault key",
                    failure);
        }
    }

    private static Cipher cipher() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException missing) {
            throw new IllegalStateException("This Java runtime has no AES-GCM", missing);
        }
    }
}
