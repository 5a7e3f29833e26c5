package org.agentplatform.query.feed;

import reactor.core.publisher.Flux;

/**
 * Commit notifications of the read models, by channel and key (a notification's payload is
 * {@code <key>:<detail>}). They only wake readers; the rows they then read are the truth. A feed that
 * may have lost notifications (its connection dropped) wakes every subscriber once it is back, so a
 * reader needs no timer of its own.
 */
public interface ChangeFeed {

    /** A notification: its channel and payload. */
    record Change(String channel, String payload) {
    }

    /** The payload of a wake-up after a reconnect, after the key ({@code <key>:resync}; {@code :resync} for {@link #every}). */
    String RESYNC = "resync";

    /** Notifications on {@code channel} about {@code key}, and the feed's wake-ups after a reconnect. */
    Flux<Change> on(String channel, String key);

    /**
     * Every notification on {@code channel}, whatever its key, handed on before the subscribers of its key are woken; and
     * after a reconnect one {@link #isResync resync} change (notifications sent meanwhile are lost).
     */
    Flux<Change> every(String channel);

    /** Whether the change is a wake-up after a reconnect rather than a notification. */
    static boolean isResync(Change change) {
        return change.payload().endsWith(":" + RESYNC);
    }

    /** The key of a payload: what comes before its first {@code ':'}. */
    static String keyOf(String payload) {
        int colon = payload.indexOf(':');
        return colon < 0 ? payload : payload.substring(0, colon);
    }
}
