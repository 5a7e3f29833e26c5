package org.agentplatform.infra.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock, moved forward on demand so tests reach expiry without sleeping, and stopped on demand so a
 * test about budgets and windows cannot see a second pass on a slow machine.
 */
public final class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;
    private volatile Instant stoppedAt;

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

    /** Back to the system clock, running. */
    public void reset() {
        stoppedAt = null;
        offset = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        Instant stopped = stoppedAt;
        return stopped != null ? stopped : Instant.now().plus(offset);
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
