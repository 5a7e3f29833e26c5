package org.agentplatform.infra.eventstore;

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
 * <p>
 * Every node also announces itself once a {@value #PRESENCE_MS} ms, commits or not, and announces its commits only while
 * it has heard another node within {@value #OTHERS_GONE_MS} ms: a node alone on its database sends one statement a
 * second instead of a few hundred. A node's first commits, before it heard the others, reach them by that presence
 * announcement (it wakes their readers) within a second.
 */
public final class CommitAnnouncer implements AutoCloseable {

    /** The LISTEN channel; a notification's payload is {@code commit:<node>}. */
    public static final String CHANNEL = "event_store";
    static final String KEY = "commit";
    static final long SPACING_MS = 5;
    static final long PRESENCE_MS = 1_000;
    static final long OTHERS_GONE_MS = 3 * PRESENCE_MS;
    private static final Logger log = LoggerFactory.getLogger(CommitAnnouncer.class);

    private final JdbcTemplate jdbc;
    private final String node = UUID.randomUUID().toString();
    private final Thread sender;
    private final AtomicLong heard = new AtomicLong();
    /** When ({@link System#nanoTime}) this node last heard another; long ago at first. */
    private volatile long heardAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(2 * OTHERS_GONE_MS);
    private volatile boolean committed;
    private volatile boolean closed;

    CommitAnnouncer(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.sender = Thread.ofPlatform().name("commit-announcer").daemon().start(this::send);
    }

    /** This node committed events. */
    void committed() {
        committed = true;
        if (othersListen()) {
            LockSupport.unpark(sender);
        }
    }

    /** Whether a notification's payload came from another node; counts those. */
    boolean fromOtherNode(String payload) {
        boolean other = !payload.equals(KEY + ":" + node);
        if (other) {
            heardAt = System.nanoTime();
            heard.incrementAndGet();
        }
        return other;
    }

    /** Whether another node announced itself lately, so that someone hears this node's commits. */
    private boolean othersListen() {
        return System.nanoTime() - heardAt < TimeUnit.MILLISECONDS.toNanos(OTHERS_GONE_MS);
    }

    /** How many other nodes' announcements this node heard. */
    public long heard() {
        return heard.get();
    }

    private void send() {
        long presenceDue = System.nanoTime();
        while (!closed) {
            long now = System.nanoTime();
            boolean announce = committed && othersListen();
            if (!announce && now - presenceDue < 0) {
                LockSupport.parkNanos(presenceDue - now);
                continue;
            }
            committed = false;
            presenceDue = now + TimeUnit.MILLISECONDS.toNanos(PRESENCE_MS);
            try {
                jdbc.queryForObject("SELECT pg_notify(?, ?)", String.class, CHANNEL, KEY + ":" + node);
            } catch (RuntimeException failure) {
                // the other nodes still read the store at their next poll
                log.atDebug().log("commit not announced: " + failure.getMessage());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
            pauseUntil(now + TimeUnit.MILLISECONDS.toNanos(SPACING_MS));
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
