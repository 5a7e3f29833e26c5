package org.agentplatform.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The plaintext of a user API key: {@code oag_} + 64 hex (32 random bytes). It exists only in the
 * create response; the service keeps its SHA-256 and its first 12 characters for display.
 */
public record ApiKeySecret(String plaintext) {

    public static final String PREFIX = "oag_";
    public static final int DISPLAY_PREFIX_LENGTH = 12;

    private static final Pattern FORMAT = Pattern.compile("oag_[0-9a-f]{64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    public static ApiKeySecret generate() {
        return new ApiKeySecret(randomToken(PREFIX));
    }

    /** {@code prefix} and 64 hex characters (32 random bytes): the shape of our keys ({@code oag_}, {@code bak_}). */
    public static String randomToken(String prefix) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix + HexFormat.of().formatHex(bytes);
    }

    public static boolean isWellFormed(String token) {
        return FORMAT.matcher(token).matches();
    }

    public static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("SHA-256 is required of every JVM", impossible);
        }
    }

    public byte[] sha256() {
        return sha256(plaintext);
    }

    public String displayPrefix() {
        return plaintext.substring(0, DISPLAY_PREFIX_LENGTH);
    }

    @Override
    public String toString() {
        return displayPrefix() + "…"; // never print the whole key by accident
    }
}
