package org.agentplatform.kernel;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Unguessable random ids without a lock shared by every thread. {@link UUID#randomUUID()} and {@code new SecureRandom()}
 * draw from one {@code NativePRNG} whose state is guarded by a single monitor: with several ids per request (the
 * request's, the task's, each command's and event's message id), request threads and event handlers queued on it, and a
 * holder descheduled while holding it stalled an HTTP event loop for 10-40 ms. Each thread here has its own DRBG
 * generator, seeded from the system once.
 */
public final class RandomIds {

    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(RandomIds::generator);

    private RandomIds() {
    }

    /** A random (version 4) UUID. */
    public static UUID uuid() {
        byte[] bytes = new byte[16];
        RANDOM.get().nextBytes(bytes);
        bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40);
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (bytes[i] & 0xff);
            least = (least << 8) | (bytes[i + 8] & 0xff);
        }
        return new UUID(most, least);
    }

    /** {@code count} random bytes. */
    public static byte[] bytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.get().nextBytes(bytes);
        return bytes;
    }

    private static SecureRandom generator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("This JVM has no DRBG SecureRandom", missing);
        }
    }
}
