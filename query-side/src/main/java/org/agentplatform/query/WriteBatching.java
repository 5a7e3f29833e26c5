package org.agentplatform.query;

/**
 * Whether a projection may hold its statements until its processor's transaction commits, to send a batch's statements
 * together ({@link HeldStatements}). The dead-letter queue needs the opposite while it isolates a failing event: each
 * event's statements run in its handler, where a failure belongs to that event alone.
 */
public interface WriteBatching {

    /** Every statement runs in its handler (a point-in-time rebuild, tests that call handlers directly). */
    WriteBatching NONE = new WriteBatching() {
        @Override
        public boolean holding() {
            return false;
        }

        @Override
        public void failed(RuntimeException failure) {
        }
    };

    /** Whether the statements of the event handled now may wait for the commit. */
    boolean holding();

    /**
     * Held statements failed at the commit: the whole batch rolls back and is handled again, and should then run its
     * statements event by event, so that the event at fault is parked and the others are written.
     */
    void failed(RuntimeException failure);
}
