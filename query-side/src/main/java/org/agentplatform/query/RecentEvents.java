package org.agentplatform.query;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The events this node's reader of the event store has read a moment ago, before the read models show them: a stream
 * opened on a resource just created can start from them instead of waiting for its projection to commit.
 */
public interface RecentEvents {

    /** A node without a reader of its own (a test's, a tool's): nothing recent. */
    RecentEvents NONE = (aggregate, wait) -> Mono.empty();

    /** One event as the store holds it: {@code sequence} within its aggregate, {@code globalIndex} in the store. */
    record RecentEvent(Object payload, long sequence, long globalIndex, Instant timestamp) {
    }

    /**
     * The events of {@code aggregate} the reader holds, oldest first: at once when it holds some, else as soon as it reads
     * one within {@code wait}; empty when it does not. The reader keeps only the newest events, so this may be a later
     * part of the aggregate's events: callers check the sequence.
     */
    Mono<List<RecentEvent>> of(String aggregate, Duration wait);
}
