package org.agentplatform.query.terminal;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalId;
import org.agentplatform.query.Page;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.StoredAggregates;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/** Reads of the terminal read model, within one owner's instance. */
public final class TerminalReads {

    private static final String COLUMNS = "SELECT id, owner_id, instance_id, agent_id, conversation_id, status, attached, attachments,"
            + " end_reason, exit_status, version, created_at, updated_at, ended_at, list_offset FROM terminal_view";
    private static final String SELECT = COLUMNS + " WHERE owner_id = :owner AND instance_id = :instance";

    private final DatabaseClient database;
    private final ReadModelWaits waits;

    public TerminalReads(DatabaseClient database, ReadModelWaits waits) {
        this.database = database;
        this.waits = waits;
    }

    public Mono<TerminalRecord> find(OwnerId owner, InstanceId instance, TerminalId terminal) {
        return database.sql(SELECT + " AND id = :id")
                .bind("owner", owner.value())
                .bind("instance", instance.value())
                .bind("id", terminal.value())
                .map(TerminalReads::record)
                .one();
    }

    /**
     * The terminal whoever owns it, also one opened a moment ago that the read model does not show yet (the event store
     * knows it): that one once its projection commits, waiting up to {@code wait}. Empty for an unknown terminal.
     */
    public Mono<TerminalRecord> findOpened(TerminalId terminal, Duration wait) {
        Supplier<Mono<TerminalRecord>> find = () -> database.sql(COLUMNS + " WHERE id = :id")
                .bind("id", terminal.value())
                .map(TerminalReads::record)
                .one();
        return StoredAggregates.find(database, terminal.value(), find, () -> waits.until(terminal, find, found -> true, wait));
    }

    /** The terminal once the read model has caught up with {@code version}; empty if it does not within {@code wait}. */
    public Mono<TerminalRecord> awaitVersion(OwnerId owner, InstanceId instance, TerminalId terminal, long version, Duration wait) {
        return waits.until(terminal, () -> find(owner, instance, terminal), found -> found.version() >= version, wait);
    }

    /** A page of the instance's terminals, newest first, after {@code before} (a page's cursor). */
    public Mono<Page<TerminalRecord>> list(OwnerId owner, InstanceId instance, @Nullable Long before, int limit) {
        return Page.newestFirst(database, SELECT, query -> query.bind("owner", owner.value()).bind("instance", instance.value()), before,
                limit, TerminalReads::record);
    }

    private static TerminalRecord record(Readable row) {
        UUID agent = row.get("agent_id", UUID.class);
        UUID conversation = row.get("conversation_id", UUID.class);
        return new TerminalRecord(
                new TerminalId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                new InstanceId(row.get("instance_id", UUID.class)),
                agent == null ? null : new AgentId(agent),
                conversation == null ? null : new ConversationId(conversation),
                row.get("status", String.class),
                Boolean.TRUE.equals(row.get("attached", Boolean.class)),
                row.get("attachments", Integer.class),
                row.get("end_reason", String.class),
                row.get("exit_status", Integer.class),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class),
                row.get("ended_at", Instant.class));
    }
}
