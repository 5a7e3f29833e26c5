package org.agentplatform.infra.axon;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Tells the other nodes that this one committed events, so their readers of the store wake at once instead of at their
 * next poll. Commits only flag it; one thread sends one {@code NOTIFY} for all the commits since its last, in a statement
 * of its own: nothing is added to the command's transaction (a NOTIFY there would take PostgreSQL's notify lock at every
 * commit). It sends at most one every {@value #SPACING_MS} ms, so a node under load costs PostgreSQL a few hundred
 * statements a second, not one per commit, and the other nodes hear of a commit at most that much later. A node ignores
 * its own.
 */
public final class CommitAnnouncer implements AutoCloseable {

    /** The LISTEN channel; a notification's payload is {@code commit:<node>}. */
    public static final String CHANNEL = "event_store";
    static final String KEY = "commit";
    static final long SPACING_MS = 5;
    private static final Logger log = LoggerFactory.getLogger(CommitAnnouncer.class);

    private final JdbcTemplate jdbc;
    private final String node = UUID.randomUUID().toString();
    private final Thread sender;
    private final AtomicLong heard = new AtomicLong();
    private volatile boolean committed;
    private volatile boolean closed;

    CommitAnnouncer(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.sender = Thread.ofPlatform().name("commit-announcer").daemon().start(this::send);
    }

    /** This node committed events. */
    void committed() {
        committed = true;
        LockSupport.unpark(sender);
    }

    /** Whether a notification's payload came from another node; counts those. */
    boolean fromOtherNode(String payload) {
        boolean other = !payload.equals(KEY + ":" + node);
        if (other) {
            heard.incrementAndGet();
        }
        return other;
    }

    /** How many other nodes' announcements this node heard. */
    public long heard() {
        return heard.get();
    }

    private void send() {
        while (!closed) {
            if (!committed) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            }
            committed = false;
            long sent = System.nanoTime();
            try {
                jdbc.queryForObject("SELECT pg_notify(?, ?)", String.class, CHANNEL, KEY + ":" + node);
            } catch (RuntimeException failure) {
                // the other nodes still read the store at their next poll
                log.atDebug().log("commit not announced: " + failure.getMessage());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
            pauseUntil(sent + TimeUnit.MILLISECONDS.toNanos(SPACING_MS));
        }
    }

    /** Waits until {@code deadline} ({@link System#nanoTime}) however often commits unpark this thread. */
    private void pauseUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0 && !closed; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(sender);
    }
}
