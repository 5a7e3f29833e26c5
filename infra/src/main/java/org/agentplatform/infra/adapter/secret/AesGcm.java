package org.agentplatform.infra.adapter.secret;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/** AES-256-GCM under the vault key, with associated data binding a ciphertext to where it is kept. */
public final class AesGcm {

    public static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private AesGcm() {
    }

    public static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    public static byte[] encrypt(SecretKey key, byte[] nonce, byte[] associatedData, byte[] plaintext) {
        return crypt(Cipher.ENCRYPT_MODE, key, nonce, associatedData, plaintext);
    }

    public static byte[] decrypt(SecretKey key, byte[] nonce, byte[] associatedData, byte[] ciphertext) {
        return crypt(Cipher.DECRYPT_MODE, key, nonce, associatedData, ciphertext);
    }

    private static byte[] crypt(int mode, SecretKey key, byte[] nonce, byte[] associatedData, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData);
            return cipher.doFinal(input);
        } catch (GeneralSecurityException failure) {
            throw new IllegalStateException("Cannot " + (mode == Cipher.ENCRYPT_MODE ? "seal" : "open") + " a secret with the vault key",
                    failure);
        }
    }
}
