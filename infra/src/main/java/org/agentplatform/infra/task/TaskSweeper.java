package org.agentplatform.infra.task;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.command.conversation.ConversationDispatcher;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.infra.axon.StoredTokens;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.query.channel.ChannelChunks;
import org.agentplatform.query.channel.ChannelOffsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recovers what the event-driven path of tasks and conversations can lose in a crash: queued tasks of running instances
 * that nobody started, and started turns (of tasks and conversations) the runtime never received (it takes over its own silent turns
 * and reports unreported outcomes). Also prunes streaming chunks past their retention.
 */
final class TaskSweeper {

    private static final Logger log = LoggerFactory.getLogger(TaskSweeper.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final int PRUNE_BATCH = 10_000;
    /**
     * The hand-back's query reads every running task; after a burst (thousands of them) it takes a few hundred
     * milliseconds of the database, in parallel workers. It is run again only after this many times as long as it took,
     * so that it costs at most a fiftieth of one backend's time: every sweep at rest, less often with a large backlog.
     */
    private static final int HAND_BACK_SPACING = 50;

    private final JdbcTemplate jdbc;
    private final TaskDispatcher dispatcher;
    private final LocalRuntime runtime;
    private final ChannelChunks chunks;
    private final Clock clock;
    private final Duration chunkRetention;
    /** When ({@link System#nanoTime()}) each kind's hand-back may run next. */
    private final Map<AgentTurn.Kind, Long> handBackDue = new EnumMap<>(AgentTurn.Kind.class);

    TaskSweeper(JdbcTemplate jdbc, TaskDispatcher dispatcher, LocalRuntime runtime, ChannelChunks chunks, Clock clock,
            Duration chunkRetention) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.runtime = runtime;
        this.chunks = chunks;
        this.clock = clock;
        this.chunkRetention = chunkRetention;
    }

    void sweep() {
        OffsetDateTime settled = OffsetDateTime.ofInstant(clock.instant().minus(GRACE), ZoneOffset.UTC);
        jdbc.queryForList("SELECT DISTINCT t.instance_id FROM task_view t JOIN instance_view i ON i.id = t.instance_id"
                        + " WHERE t.status = 'queued' AND t.updated_at < ? AND i.status = 'running'", UUID.class, settled)
                .forEach(instance -> dispatcher.dispatchQueuedOn(new InstanceId(instance)));
        handBackStartedTurns(AgentTurn.Kind.TASK, TaskDispatcher.GROUP, "task_view", "status", settled);
        handBackStartedTurns(AgentTurn.Kind.CONVERSATION, ConversationDispatcher.GROUP, "conversation_view", "turn_status", settled);
        runtime.recoverTurns();
        chunks.prune(chunkRetention, PRUNE_BATCH);
    }

    /**
     * Hands the runtime again the running turns of tasks or conversations ({@code view}, whose {@code status} column
     * says the turn runs) that it has no record of, once their dispatcher ({@code dispatcher}, a processing group) has
     * passed the event that started them: a turn whose start the dispatcher has not reached yet is on its way (a burst's
     * backlog waits there), not lost. The turn's chunks go in the window of the status row that started it.
     */
    private void handBackStartedTurns(AgentTurn.Kind kind, String dispatcher, String view, String status, OffsetDateTime settled) {
        long began = System.nanoTime();
        if (began - handBackDue.getOrDefault(kind, began) < 0) {
            return;
        }
        StoredTokens.Progress dispatched = StoredTokens.progress(jdbc, dispatcher);
        if (dispatched.position() == 0) {
            return;
        }
        jdbc.query("SELECT v.id, v.owner_id, v.agent_id, v.instance_id, v.context_id, v.turn, i.runtime_epoch, m.text,"
                + " m.attachments::text AS attachments, s.log_offset AS started FROM " + view + " v"
                + " JOIN instance_view i ON i.id = v.instance_id"
                + " JOIN channel_message m ON m.channel_id = v.id AND m.turn = v.turn AND m.kind = 'user_message'"
                + " JOIN channel_message s ON s.channel_id = v.id AND s.turn = v.turn AND s.status = 'running'"
                + " WHERE v." + status + " = 'running' AND v.updated_at < ? AND s.log_offset < ?"
                + " AND NOT EXISTS (SELECT 1 FROM local_turn l WHERE l.channel_id = v.id AND l.turn = v.turn)", row -> {
                    long started = ChannelOffsets.windowOf(row.getLong("started"));
                    if (!dispatched.passed(started)) {
                        return;
                    }
                    UUID channel = row.getObject("id", UUID.class);
                    log.atInfo().addKeyValue(kind.wireName() + "_id", channel.toString()).log("handing a started turn to the runtime again");
                    runtime.startTurn(new AgentTurn(kind, channel, new OwnerId(row.getObject("owner_id", UUID.class)),
                            new AgentId(row.getObject("agent_id", UUID.class)), new InstanceId(row.getObject("instance_id", UUID.class)),
                            row.getString("context_id"), row.getInt("turn"), row.getLong("runtime_epoch"), started,
                            TaskMessage.user(row.getString("text"), attachments(row.getString("attachments")))));
                }, settled, ChannelOffsets.ofEvent(dispatched.position() + 1));
        long ended = System.nanoTime();
        handBackDue.put(kind, ended + HAND_BACK_SPACING * (ended - began));
    }

    private static List<Attachment> attachments(String json) {
        List<Attachment> attachments = new ArrayList<>();
        if (json != null) {
            for (JsonNode item : JSON.readTree(json)) {
                attachments.add(new Attachment(item.path("file_id").asString(), item.path("name").asString(null),
                        item.path("content_type").asString(null), item.path("size_bytes").asLong(), item.path("sha256").asString(null)));
            }
        }
        return attachments;
    }
}
