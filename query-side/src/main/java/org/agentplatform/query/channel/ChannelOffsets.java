package org.agentplatform.query.channel;

/**
 * Offsets of a channel's log (a task's or a conversation's). The rows of an event take offsets from
 * {@code globalIndex << 20} on (the event's own global index, so they are the same in every replay); the chunks
 * streamed in the turn that event started take the next ones in the same window. So offsets grow strictly per
 * channel and are never contiguous across events, as the contract allows.
 */
public final class ChannelOffsets {

    static final int WINDOW_BITS = 20;
    /** An event writes at most two rows (a message and its status); chunks follow them. */
    static final int FIRST_CHUNK = 2;
    /** How many chunks a turn's window holds; later ones are left out (the final message has the whole reply). */
    public static final int CHUNKS_PER_WINDOW = (1 << WINDOW_BITS) - FIRST_CHUNK;

    private ChannelOffsets() {
    }

    /** The first offset of the rows of the event at {@code globalIndex}. */
    public static long ofEvent(long globalIndex) {
        return globalIndex << WINDOW_BITS;
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
