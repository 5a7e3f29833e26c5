package org.agentplatform.query.conversation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationClosed;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationOpened;
import org.agentplatform.kernel.conversation.ConversationEvent.MessagePosted;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnEnded;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.WriteBatching;
import org.agentplatform.query.channel.ChannelLocks;
import org.agentplatform.query.channel.ChannelLog;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Conversation events into the snapshot ({@code conversation_view}) and the conversation's channel log
 * ({@link ChannelLog}): {@code conversation_status} rows when it opens and closes, and per turn the caller's
 * message ({@code user_message}) with a {@code turn_status} {@code running} row when it starts, the turn's chunks,
 * then the agent's reply ({@code agent_message}) and the {@code turn_status} it ended with. A message enters the
 * log when its turn starts, not when it is posted: a message posted while a turn streams would otherwise take an
 * offset above chunks still to come, and a reader past it would miss them. The statuses that end a turn from
 * outside (cancel, failure, close) are written under the conversation's lock, which the chunk writer takes too.
 */
@ProcessingGroup(ConversationProjection.GROUP)
public class ConversationProjection {

    public static final String GROUP = "conversation-projection";
    public static final String VIEW = "conversation_view";
    public static final String CONVERSATION_STATUS = "conversation_status";
    public static final String TURN_STATUS = "turn_status";
    public static final String OPEN = "open";
    public static final String CLOSED = "closed";

    private static final String OPENED = "INSERT INTO conversation_view (id, owner_id, agent_id, instance_id, context_id, title, status,"
            + " turn, messages, last_offset, change_offset, opened_offset, version, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, 'open', 0, 0, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";

    private final JdbcTemplate jdbc;
    private final ChannelLog log;

    public ConversationProjection(JdbcTemplate jdbc) {
        this(jdbc, WriteBatching.NONE);
    }

    /** {@code batching}: whether a batch's statements may wait for its commit, to be sent together. */
    public ConversationProjection(JdbcTemplate jdbc, WriteBatching batching) {
        this.jdbc = jdbc;
        this.log = new ChannelLog(jdbc, VIEW, batching);
    }

    @EventHandler
    void on(ConversationOpened event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        long last = ChannelLog.lastOffset(globalIndex, 1);
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.of(OPENED, event.conversationId().value(),
                        event.conversation().ownerId().value(), event.conversation().agentId().value(),
                        event.conversation().instanceId().value(), event.conversation().contextId(), event.title(), last, last, last, sequence,
                        SqlTime.of(at), SqlTime.of(at)),
                List.of(ChannelLog.status(CONVERSATION_STATUS, 0, OPEN, null)));
    }

    @EventHandler
    void on(MessagePosted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        // no row: the message enters the log when its turn starts
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.set(VIEW, event.conversationId().value(), sequence,
                at, 0, Map.of("messages", event.number())), List.of());
    }

    @EventHandler
    void on(TurnStarted event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        Map<String, Object> message = Map.of("message_id", event.messageId().toString());
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put("turn", event.turn());
        columns.put("turn_status", "running");
        columns.put("error_code", null);
        columns.put("error_message", null);
        // folds with the message's posting, the event before it
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.set(VIEW, event.conversationId().value(), sequence,
                        at, ChannelLog.lastOffset(globalIndex, 2), columns),
                List.of(ChannelLog.message(event.message(), event.turn()).withData(message),
                        ChannelLog.status(TURN_STATUS, event.turn(), TaskStatus.RUNNING.wireName(), message)));
    }

    @EventHandler
    void on(TurnEnded event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        List<ChannelLog.Row> rows = new ArrayList<>();
        if (event.reply() != null) {
            rows.add(ChannelLog.message(event.reply(), event.turn()));
        }
        Map<String, Object> data = new LinkedHashMap<>();
        if (event.failure() != null) {
            data.put("code", event.failure().code());
            data.put("message", event.failure().message());
            ChannelLocks.lock(jdbc, event.conversationId().value());
        }
        rows.add(ChannelLog.status(TURN_STATUS, event.turn(), event.status().wireName(), data));
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.update(VIEW, event.conversationId().value(), sequence,
                        at, ChannelLog.lastOffset(globalIndex, rows.size()),
                        "turn_status = ?, text = COALESCE(?, text), error_code = ?, error_message = ?", event.status().wireName(),
                        event.reply() == null ? null : event.reply().text(), event.failure() == null ? null : event.failure().code(),
                        event.failure() == null ? null : event.failure().message()),
                rows);
    }

    @EventHandler
    void on(TurnCanceled event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", event.reason());
        ChannelLocks.lock(jdbc, event.conversationId().value());
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.update(VIEW, event.conversationId().value(), sequence,
                        at, ChannelLog.lastOffset(globalIndex, 1), "turn_status = 'canceled', error_code = NULL, error_message = ?",
                        event.reason()),
                List.of(ChannelLog.status(TURN_STATUS, event.turn(), TaskStatus.CANCELED.wireName(), data)));
    }

    @EventHandler
    void on(ConversationClosed event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        long globalIndex = ChannelLog.globalIndex(index, token);
        ChannelLocks.lock(jdbc, event.conversationId().value());
        log.write(event.conversationId().value(), globalIndex, at, ChannelLog.Change.update(VIEW, event.conversationId().value(), sequence,
                        at, ChannelLog.lastOffset(globalIndex, 1), "status = 'closed'"),
                List.of(ChannelLog.status(CONVERSATION_STATUS, null, CLOSED, event.unanswered().isEmpty() ? null
                        : Map.of("unanswered", event.unanswered().stream().map(Object::toString).toList()))));
    }
}
