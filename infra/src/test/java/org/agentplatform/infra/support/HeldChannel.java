package org.agentplatform.infra.support;

import static org.agentplatform.infra.support.PlatformClient.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.query.channel.ChannelLocks;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A task's or conversation's channel lock held by the test, so that the turn worker writing its next chunk waits for it:
 * with one turn worker, the node's turns then wait too, as long as the test wants. Let go when closed.
 */
public final class HeldChannel implements AutoCloseable {

    /**
     * A task's or message's text whose turn writes its first chunk three seconds after it began, on its worker: time for
     * the test to take the channel's lock first, even on a busy machine.
     */
    public static final String HOLDING_TURN = "hold the worker\n/echo deltas=2 take_ms=6000";

    private final Connection holder;
    private final long key;

    private HeldChannel(Connection holder, long key) {
        this.holder = holder;
        this.key = key;
    }

    /**
     * Takes the channel's lock (the one-key advisory lock of the chunk writer) and waits until a worker waits for it: the
     * channel's turn must be about to write a chunk ({@link #HOLDING_TURN}).
     */
    public static HeldChannel holdingItsWorker(DataSource dataSource, JdbcTemplate jdbc, String channel) throws SQLException {
        Connection holder = dataSource.getConnection();
        HeldChannel held = new HeldChannel(holder, ChannelLocks.key(UUID.fromString(channel)));
        held.run("SELECT pg_advisory_lock(?)");
        // this channel's one-key advisory lock (its key's high and low halves; the fair shares' locks take two keys): any
        // waiter in the cluster would do on a quiet database, but the test JVM's other contexts write chunks of their own
        await(() -> jdbc.queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND NOT granted"
                        + " AND classid::bigint = ? AND objid::bigint = ?", Integer.class, held.key >>> 32, held.key & 0xFFFF_FFFFL),
                waiting -> waiting > 0, "the worker waiting for the channel's lock");
        return held;
    }

    /** Lets the worker go on. */
    @Override
    public void close() throws SQLException {
        try {
            run("SELECT pg_advisory_unlock(?)");
        } finally {
            holder.close();
        }
    }

    private void run(String lock) throws SQLException {
        try (PreparedStatement statement = holder.prepareStatement(lock)) {
            statement.setLong(1, key);
            statement.executeQuery().close();
        }
    }
}
