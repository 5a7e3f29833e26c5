package org.agentplatform.infra.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The system clock, moved forward on demand so tests reach expiry without sleeping, and stopped on demand so a
 * test about budgets and windows cannot see a second pass on a slow machine.
 */
public final class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;
    private volatile Instant stoppedAt;
    private final AtomicReference<Stall> stall = new AtomicReference<>();

    /** A thread that reads the clock next, by the start of its name, held there while an action runs. */
    private record Stall(String threadPrefix, Runnable action) {
    }

    public void advance(Duration by) {
        Instant stopped = stoppedAt;
        if (stopped != null) {
            stoppedAt = stopped.plus(by);
        }
        offset = offset.plus(by);
    }

    /** Time stands still (until {@link #advance} or {@link #reset}), however long the test takes. */
    public void stop() {
        stoppedAt = instant();
    }

    /**
     * The next thread whose name starts with {@code threadPrefix} to read this clock stalls once it has the instant, while
     * {@code action} runs on it: what a descheduled thread does between reading the time and using it.
     */
    public void stallNextRead(String threadPrefix, Runnable action) {
        stall.set(new Stall(threadPrefix, action));
    }

    /** Back to the system clock, running, stalling no one. */
    public void reset() {
        stoppedAt = null;
        offset = Duration.ZERO;
        stall.set(null);
    }

    @Override
    public Instant instant() {
        Instant stopped = stoppedAt;
        Instant now = stopped != null ? stopped : Instant.now().plus(offset);
        Stall next = stall.get();
        if (next != null && Thread.currentThread().getName().startsWith(next.threadPrefix()) && stall.compareAndSet(next, null)) {
            next.action().run();
        }
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("TestClock is UTC only");
    }
}
