package org.agentplatform.infra.local.terminal;

/**
 * The newest bytes a terminal wrote, at most {@code capacity}, addressed by their offset in everything it ever wrote.
 * Not thread-safe: its {@link Pty} guards it.
 */
final class Scrollback {

    private final byte[] ring;
    private long end;

    Scrollback(int capacity) {
        this.ring = new byte[capacity];
    }

    void append(byte[] bytes, int length) {
        int from = Math.max(0, length - ring.length);
        for (int i = from; i < length; ) {
            int at = (int) ((end + i) % ring.length);
            int run = Math.min(length - i, ring.length - at);
            System.arraycopy(bytes, i, ring, at, run);
            i += run;
        }
        end += length;
    }

    /** The offset after the last byte written. */
    long end() {
        return end;
    }

    /** The offset of the oldest byte still kept. */
    long oldest() {
        return Math.max(0, end - ring.length);
    }

    /**
     * Up to {@code max} bytes from {@code from} (or from the oldest kept, when those were overwritten), not across the ring's
     * wrap; null when nothing new is there.
     */
    Chunk read(long from, int max) {
        long start = Math.max(from, oldest());
        if (start >= end) {
            return null;
        }
        int at = (int) (start % ring.length);
        int length = (int) Math.min(Math.min(end - start, max), ring.length - at);
        byte[] bytes = new byte[length];
        System.arraycopy(ring, at, bytes, 0, length);
        return new Chunk(bytes, start + length);
    }

    record Chunk(byte[] bytes, long next) {
    }
}
