package org.agentplatform.query.task;

/**
 * Offsets of a task's log. The rows of an event take offsets from {@code globalIndex << 20} on (stable
 * across replays); the chunks streamed after that event take the next ones in the same window. So
 * offsets grow strictly per task and are never contiguous across events, as the contract allows.
 */
public final class TaskOffsets {

    static final int WINDOW_BITS = 20;

    private TaskOffsets() {
    }

    /** The first offset of the rows of the event at {@code globalIndex}. */
    public static long ofEvent(long globalIndex) {
        return globalIndex << WINDOW_BITS;
    }

    /** Whether {@code offset} is still in the window of the event whose rows end at {@code eventOffset}. */
    static boolean sameWindow(long offset, long eventOffset) {
        return offset >> WINDOW_BITS == eventOffset >> WINDOW_BITS;
    }
}
