package org.agentplatform.kernel;

/**
 * An event's global index in the event store, handed to event handlers as metadata under {@link #KEY}
 * (added when the event is read, never stored). Unlike a tracking token's position, which is the highest
 * index its reader had seen, it is the event's own: an event that committed late keeps its index, so
 * every processor, and every replay, places it the same.
 */
public final class GlobalIndex {

    public static final String KEY = "globalIndex";

    private GlobalIndex() {
    }
}
