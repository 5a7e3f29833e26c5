package org.agentplatform.query.terminal;

import java.time.Instant;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalAttached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalDetached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalEnded;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalOpened;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.channel.ChannelLog;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Terminal events into {@code terminal_view}; a row's version is its aggregate's last sequence, so replays are no-ops. An
 * opening and an end are announced to readers waiting for the row (a read right after the create, a close answering the
 * ended terminal); nothing waits for the other changes.
 */
@ProcessingGroup(TerminalProjection.GROUP)
public class TerminalProjection {

    public static final String GROUP = "terminal-projection";
    public static final String OPEN = "open";
    public static final String ENDED = "ended";

    private final JdbcTemplate jdbc;

    public TerminalProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(TerminalOpened event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        jdbc.update("INSERT INTO terminal_view (id, owner_id, instance_id, agent_id, conversation_id, status, attached, attachments,"
                        + " version, created_at, updated_at, list_offset) VALUES (?, ?, ?, ?, ?, ?, false, 0, ?, ?, ?, ?)"
                        + " ON CONFLICT (id) DO NOTHING",
                event.terminalId().value(), event.ownerId().value(), event.instanceId().value(),
                event.agentId() == null ? null : event.agentId().value(),
                event.conversationId() == null ? null : event.conversationId().value(), OPEN, sequence, SqlTime.of(at), SqlTime.of(at),
                ChannelLog.globalIndex(index, token));
        ReadModelWaits.changed(jdbc, event.terminalId());
    }

    @EventHandler
    void on(TerminalAttached event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE terminal_view SET attached = true, attachments = ?, version = ?, updated_at = ? WHERE id = ? AND version < ?",
                event.attachment(), sequence, SqlTime.of(at), event.terminalId().value(), sequence);
    }

    @EventHandler
    void on(TerminalDetached event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE terminal_view SET attached = false, version = ?, updated_at = ? WHERE id = ? AND version < ?",
                sequence, SqlTime.of(at), event.terminalId().value(), sequence);
    }

    @EventHandler
    void on(TerminalEnded event, @SequenceNumber long sequence, @Timestamp Instant at) {
        jdbc.update("UPDATE terminal_view SET status = ?, attached = false, end_reason = ?, exit_status = ?, ended_at = ?, version = ?,"
                        + " updated_at = ? WHERE id = ? AND version < ?",
                ENDED, event.reason().wireName(), event.exitStatus(), SqlTime.of(at), sequence, SqlTime.of(at), event.terminalId().value(),
                sequence);
        ReadModelWaits.changed(jdbc, event.terminalId());
    }
}
