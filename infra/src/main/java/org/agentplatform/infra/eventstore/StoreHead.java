package org.agentplatform.infra.eventstore;

import java.time.Duration;
import java.util.OptionalLong;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The head of the event store (its highest global index, read at most once a second for health and the lag metric,
 * afresh for the saturation sample) and where a processor's slowest segment on this node stands: what they compare.
 */
public final class StoreHead {

    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final JdbcTemplate jdbc;
    private volatile long head;
    private volatile long readAt = System.nanoTime() - FRESH_NANOS;

    public StoreHead(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The highest global index in the store (-1 when empty), read again when the last read is older than a second. */
    public long head() {
        return System.nanoTime() - readAt > FRESH_NANOS ? headNow() : head;
    }

    /** The highest global index in the store (-1 when empty), read now. */
    public long headNow() {
        Long newest = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        head = newest == null ? -1 : newest;
        readAt = System.nanoTime();
        return head;
    }

    /** How many events {@code head} is ahead of the processor's slowest segment on this node; empty when it holds none here. */
    public static OptionalLong lag(StreamingEventProcessor processor, long head) {
        return lag(slowest(processor), head);
    }

    /** How far {@code slowest} (a processor's slowest position, as read) is behind {@code head}; empty when it is. */
    public static OptionalLong lag(OptionalLong slowest, long head) {
        return slowest.isEmpty() ? slowest : OptionalLong.of(Math.max(0, head - slowest.getAsLong()));
    }

    /** The position of the processor's slowest segment on this node; empty when it holds none here. */
    public static OptionalLong slowest(StreamingEventProcessor processor) {
        long slowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : processor.processingStatus().values()) {
            OptionalLong position = status.getCurrentPosition();
            if (position.isPresent()) {
                slowest = Math.min(slowest, position.getAsLong());
            }
        }
        return slowest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(slowest);
    }
}
