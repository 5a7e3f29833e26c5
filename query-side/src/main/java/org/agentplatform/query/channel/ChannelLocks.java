package org.agentplatform.query.channel;

import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A channel's lock in PostgreSQL (a transaction-scoped advisory lock on its id): the chunk writer and the
 * projection of the statuses that end a turn from outside take it, so a turn's chunks and those statuses
 * commit one after the other, never interleaved.
 */
public final class ChannelLocks {

    private ChannelLocks() {
    }

    /** The statement that takes a channel's lock until its transaction ends; its argument is the channel's {@link #key}. */
    static final String LOCK = "SELECT pg_advisory_xact_lock(?)";

    /** Takes the lock until the current transaction ends. */
    public static void lock(JdbcTemplate jdbc, UUID channel) {
        jdbc.query(LOCK, row -> null, key(channel));
    }

    /** The channel's lock, as the argument of {@link #LOCK} (a test holding it stops the channel's chunk writer). */
    public static long key(UUID channel) {
        return channel.getMostSignificantBits() ^ channel.getLeastSignificantBits();
    }
}
