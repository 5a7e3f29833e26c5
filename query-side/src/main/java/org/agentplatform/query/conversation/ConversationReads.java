package org.agentplatform.query.conversation;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.channel.ChannelReads;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of the conversation read model and of conversations' logs. Access rules are the caller's to apply. */
public final class ConversationReads {

    private static final String COLUMNS = "id, owner_id, agent_id, instance_id, context_id, title, status, turn, turn_status, messages,"
            + " text, error_code, error_message, " + ChannelReads.lastOffsetColumn(ConversationProjection.VIEW) + ", opened_offset,"
            + " pruned_through, version, created_at, updated_at";

    private final DatabaseClient database;
    private final ReadModelWaits waits;
    private final ChannelReads channels;

    public ConversationReads(DatabaseClient database, ReadModelWaits waits) {
        this.database = database;
        this.waits = waits;
        this.channels = new ChannelReads(database);
    }

    public Mono<ConversationRecord> find(ConversationId id) {
        return database.sql("SELECT " + COLUMNS + " FROM conversation_view WHERE id = :id")
                .bind("id", id.value())
                .map(ConversationReads::conversation)
                .one();
    }

    /**
     * The conversation, also one opened a moment ago that the read model does not show yet (the event store knows
     * it): that one once its projection commits, waiting up to {@code wait}. Empty for an unknown conversation.
     */
    public Mono<ConversationRecord> findOpened(ConversationId id, Duration wait) {
        return channels.findStored(id.value(), () -> find(id), waits, wait);
    }

    /** The conversation once it shows the change at {@code version} (woken by its commits); empty when not within {@code wait}. */
    public Mono<ConversationRecord> awaitVersion(ConversationId id, long version, Duration wait) {
        return waits.until(ChannelLog.NOTIFICATIONS, id, () -> find(id), conversation -> conversation.version() >= version, wait);
    }

    /** The owner's conversations with an agent, the newest first; {@code before} (an opened offset) pages on. */
    public Flux<ConversationRecord> list(OwnerId owner, AgentId agent, Long before, int limit) {
        DatabaseClient.GenericExecuteSpec query = database.sql("SELECT " + COLUMNS + " FROM conversation_view WHERE owner_id = :owner"
                        + " AND agent_id = :agent" + (before == null ? "" : " AND opened_offset < :before")
                        + " ORDER BY opened_offset DESC LIMIT :limit")
                .bind("owner", owner.value())
                .bind("agent", agent.value())
                .bind("limit", limit);
        if (before != null) {
            query = query.bind("before", before);
        }
        return query.map(ConversationReads::conversation).all();
    }

    public Flux<ChannelEntry> log(ConversationId id, long since, boolean withChunks, int limit) {
        return channels.log(id.value(), since, withChunks, limit);
    }

    private static ConversationRecord conversation(Readable row) {
        return new ConversationRecord(
                new ConversationId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                new AgentId(row.get("agent_id", UUID.class)),
                new InstanceId(row.get("instance_id", UUID.class)),
                row.get("context_id", String.class),
                row.get("title", String.class),
                row.get("status", String.class),
                row.get("turn", Integer.class),
                row.get("turn_status", String.class),
                row.get("messages", Integer.class),
                row.get("text", String.class),
                row.get("error_code", String.class),
                row.get("error_message", String.class),
                row.get("last_offset", Long.class),
                row.get("opened_offset", Long.class),
                row.get("pruned_through", Long.class),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }
}
