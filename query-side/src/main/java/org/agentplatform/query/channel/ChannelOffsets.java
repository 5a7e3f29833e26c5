package org.agentplatform.query.channel;

/**
 * Offsets of a channel's log (a task's or a conversation's). The rows of an event take offsets from
 * {@code globalIndex << 20} on (the event's own global index, so they are the same in every replay); the status that
 * the turn that event handed over began (a task's {@code running}, written by a later event) takes the next, and the
 * chunks streamed in the turn the ones after it, in the same window. So offsets grow strictly per channel and are never
 * contiguous across events, as the contract allows.
 */
public final class ChannelOffsets {

    static final int WINDOW_BITS = 20;
    /** An event writes at most two rows in its window (a message and its status). */
    public static final int EVENT_ROWS = 2;
    /** Then the row saying the turn began, then the chunks. */
    static final int TURN_BEGAN = EVENT_ROWS;
    static final int FIRST_CHUNK = TURN_BEGAN + 1;
    /** How many chunks a turn's window holds; later ones are left out (the final message has the whole reply). */
    public static final int CHUNKS_PER_WINDOW = (1 << WINDOW_BITS) - FIRST_CHUNK;

    private ChannelOffsets() {
    }

    /** The first offset of the rows of the event at {@code globalIndex}. */
    public static long ofEvent(long globalIndex) {
        return globalIndex << WINDOW_BITS;
    }

    /** The offset of the status saying that the turn handed over by the event at {@code window} began. */
    public static long ofTurnBegan(long window) {
        return ofEvent(window) + TURN_BEGAN;
    }

    /** The offset of chunk {@code seq} of the turn started by the event at {@code window}. */
    public static long ofChunk(long window, int seq) {
        return ofEvent(window) + FIRST_CHUNK + seq;
    }

    /** The global index of the event whose window holds {@code offset}. */
    public static long windowOf(long offset) {
        return offset >> WINDOW_BITS;
    }
}
