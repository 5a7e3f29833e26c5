package org.agentplatform.api.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.channel.ChannelChunks.Chunk;
import org.agentplatform.query.channel.ChannelChunks.Written;
import org.agentplatform.query.channel.ChannelChunks;
import org.agentplatform.query.channel.ChannelLocks;
import org.agentplatform.query.channel.ChannelOffsets;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The chunk writer and the channel's lock, which it takes and writes under in one round trip: against a status that ends
 * the turn from outside, written under the lock as the task projection writes a cancel, the chunk waits for the lock, and
 * once the status is committed it is left out and the writer is told the turn is over (its statement reads the log after
 * the lock was taken, not before); and the lock is held until the chunks are written.
 */
class ChunkLockTest extends ApiTest {

    private static final long WINDOW = 7;

    @Autowired
    private ChannelChunks chunks;

    @Autowired
    private PlatformTransactionManager transactions;

    @Autowired
    private DataSource dataSource;

    @Test
    void aChunkWaitsForTheChannelsLockAndIsLeftOutOnceAStatusEndedItsTurn() throws Exception {
        UUID channel = UUID.randomUUID();
        CompletableFuture<Written> late = new CompletableFuture<>();
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            ChannelLocks.lock(jdbc(), channel);
            CompletableFuture.runAsync(() -> late.complete(chunks.append(channel, 1, WINDOW,
                    List.of(new Chunk(0, ChannelChunks.AGENT_REPLY_DELTA, "too late")))));
            assertThat(late).as("the chunk waits for the lock").failsWithin(500, TimeUnit.MILLISECONDS);
            jdbc().update("INSERT INTO channel_message (channel_id, log_offset, kind, turn, status, occurred_at)"
                    + " VALUES (?, ?, 'task_status', 1, 'canceled', now())", channel, ChannelOffsets.ofEvent(WINDOW + 3));
        });
        assertThat(late.get(10, TimeUnit.SECONDS)).isEqualTo(Written.TURN_OVER);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM channel_chunk WHERE channel_id = ?", Integer.class, channel)).isZero();
    }

    @Test
    void theLockIsHeldUntilTheChunksAreWritten() throws Exception {
        UUID channel = UUID.randomUUID();
        long lock = channel.getMostSignificantBits() ^ channel.getLeastSignificantBits();
        try (Connection other = dataSource.getConnection()) {
            // an uncommitted row at the chunk's offset: the chunk's insert waits for it, after the writer took the lock
            other.setAutoCommit(false);
            try (PreparedStatement row = other.prepareStatement("INSERT INTO channel_chunk (channel_id, log_offset, turn, seq, kind, text,"
                    + " created_at) VALUES (?, ?, 1, 0, 'agent_reply_delta', 'in the way', now())")) {
                row.setObject(1, channel);
                row.setLong(2, ChannelOffsets.ofChunk(WINDOW, 0));
                row.executeUpdate();
            }
            CompletableFuture<Written> written = CompletableFuture.supplyAsync(() -> chunks.append(channel, 1, WINDOW,
                    List.of(new Chunk(0, ChannelChunks.AGENT_REPLY_DELTA, "in time"))));
            PlatformClient.await(() -> jdbc().queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, lock),
                    free -> !free, "the writer holding the channel's lock while its insert waits");
            assertThat(written).isNotDone();
            other.rollback();
            assertThat(written.get(10, TimeUnit.SECONDS)).isEqualTo(Written.WRITTEN);
        }
        assertThat(jdbc().queryForObject("SELECT text FROM channel_chunk WHERE channel_id = ?", String.class, channel)).isEqualTo("in time");
    }
}
