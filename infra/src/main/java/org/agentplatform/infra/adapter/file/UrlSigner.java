package org.agentplatform.infra.adapter.file;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 signatures of the built-in store's URLs, under a key derived from the vault key (so every
 * node of a cluster signs alike and the vault key itself never signs anything public).
 */
final class UrlSigner {

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] PURPOSE = "agent-platform/object-urls/v1".getBytes(StandardCharsets.UTF_8);

    private final SecretKeySpec key;

    UrlSigner(SecretKey vaultKey) {
        this.key = new SecretKeySpec(mac(new SecretKeySpec(vaultKey.getEncoded(), ALGORITHM), PURPOSE), ALGORITHM);
    }

    /** The signature of one request: method, object, expiry, and for uploads the content type and length. */
    String sign(String method, String key, long expiresEpochSecond, String contentType, long length) {
        String canonical = String.join("\n", method, key, Long.toString(expiresEpochSecond), contentType == null ? "" : contentType,
                Long.toString(length));
        return HexFormat.of().formatHex(mac(this.key, canonical.getBytes(StandardCharsets.UTF_8)));
    }

    boolean verify(String signature, String method, String key, long expiresEpochSecond, String contentType, long length) {
        byte[] expected = sign(method, key, expiresEpochSecond, contentType, length).getBytes(StandardCharsets.US_ASCII);
        return signature != null && MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] mac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
