package org.agentplatform.query.agent;

import io.r2dbc.spi.Readable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.Page;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.StoredAggregates;
import org.agentplatform.query.feed.ChangeFeed;
import org.jspecify.annotations.Nullable;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

public final class R2dbcAgentReads implements AgentReads, AutoCloseable {

    /** How long a placement may be answered from memory at most, should a change's notification never come. */
    private static final Duration PLACEMENT_MAX_AGE = Duration.ofSeconds(10);

    private static final String COLUMNS = "id, owner_id, instance_id, name, model, template_id, visibility, mcp_enabled, version,"
            + " created_at, updated_at";

    private final DatabaseClient database;
    private final ReadModelWaits waits;
    private final PlacementCache placements;

    /** {@code feed} carries the agent and instance projections' change notifications ({@link ReadModelWaits#CHANNEL}). */
    public R2dbcAgentReads(DatabaseClient database, ReadModelWaits waits, ChangeFeed feed) {
        this.database = database;
        this.waits = waits;
        this.placements = new PlacementCache(feed, ReadModelWaits.CHANNEL, PLACEMENT_MAX_AGE);
    }

    @Override
    public Mono<AgentRecord> find(AgentId agentId) {
        return database.sql("SELECT " + COLUMNS + " FROM agent_view WHERE id = :id AND NOT deleted")
                .bind("id", agentId.value())
                .map(R2dbcAgentReads::agent)
                .one()
                .flatMap(agent -> skillsOf(List.of(agent.id().value()))
                        .map(skills -> withSkills(agent, skills.getOrDefault(agent.id().value(), List.of()))));
    }

    @Override
    public Mono<AgentRecord> findAccepted(AgentId agentId, Duration wait) {
        return find(agentId).switchIfEmpty(Mono.defer(() -> StoredAggregates.awaitRow(database, waits, agentId.value(),
                        () -> database.sql("SELECT deleted FROM agent_view WHERE id = :id").bind("id", agentId.value())
                                .map(row -> Boolean.TRUE.equals(row.get("deleted", Boolean.class))).one(), wait)
                .filter(deleted -> !deleted)
                .flatMap(shown -> find(agentId))));
    }

    /** From memory while neither the agent nor its instance changed (see {@link PlacementCache}). */
    @Override
    public Mono<AgentOnInstance> findOnInstance(AgentId agentId) {
        return placements.get(agentId, () -> readOnInstance(agentId));
    }

    private Mono<AgentOnInstance> readOnInstance(AgentId agentId) {
        return database.sql("SELECT a.id, a.owner_id, a.instance_id, a.name, a.model, a.template_id, a.visibility, a.mcp_enabled,"
                        + " a.version, a.created_at, a.updated_at, i.status AS instance_status, i.runtime_epoch"
                        + " FROM agent_view a LEFT JOIN instance_view i ON i.id = a.instance_id WHERE a.id = :id AND NOT a.deleted")
                .bind("id", agentId.value())
                .map(row -> {
                    String status = row.get("instance_status", String.class);
                    Long epoch = row.get("runtime_epoch", Long.class);
                    return new AgentOnInstance(agent(row), status == null ? null : InstanceStatus.fromWireName(status),
                            epoch == null ? 0 : epoch);
                })
                .one();
    }

    @Override
    public Mono<Page<AgentRecord>> visibleTo(OwnerId ownerId, @Nullable Long before, int limit) {
        return Page.newestFirst(database, "SELECT " + COLUMNS + ", list_offset FROM agent_view WHERE NOT deleted"
                        + " AND (owner_id = :owner OR visibility = 'public')", query -> query.bind("owner", ownerId.value()), before, limit,
                        R2dbcAgentReads::agent)
                .flatMap(page -> skillsOf(page.items().stream().map(agent -> agent.id().value()).toList())
                        .map(skills -> page.map(agent -> withSkills(agent, skills.getOrDefault(agent.id().value(), List.of())))));
    }

    @Override
    public Mono<AgentRecord> awaitVersion(AgentId agentId, long version, Duration wait) {
        return waits.until(agentId, () -> find(agentId), agent -> agent.version() >= version, wait);
    }

    /** What the agent and instance projections tell of their changes, so that this node answers no placement they changed. */
    public PlacementChanges placementChanges() {
        return placements;
    }

    @Override
    public void close() {
        placements.close();
    }

    private Mono<Map<UUID, List<AgentRecord.Skill>>> skillsOf(List<UUID> agents) {
        if (agents.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT agent_id, name, version, enabled FROM agent_skill_view WHERE agent_id = ANY(:agents) ORDER BY name")
                .bind("agents", agents.toArray(UUID[]::new))
                .map(row -> Map.entry(row.get("agent_id", UUID.class), new AgentRecord.Skill(row.get("name", String.class),
                        row.get("version", String.class), Boolean.TRUE.equals(row.get("enabled", Boolean.class)))))
                .all()
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
    }

    private static AgentRecord withSkills(AgentRecord agent, List<AgentRecord.Skill> skills) {
        return new AgentRecord(agent.id(), agent.ownerId(), agent.instanceId(), agent.name(), agent.model(), agent.templateId(),
                agent.visibility(), agent.mcpEnabled(), skills, agent.version(), agent.createdAt(), agent.updatedAt());
    }

    private static AgentRecord agent(Readable row) {
        return new AgentRecord(
                new AgentId(row.get("id", UUID.class)),
                new OwnerId(row.get("owner_id", UUID.class)),
                new InstanceId(row.get("instance_id", UUID.class)),
                row.get("name", String.class),
                row.get("model", String.class),
                row.get("template_id", String.class),
                Visibility.fromWireName(row.get("visibility", String.class)).orElseThrow(),
                Boolean.TRUE.equals(row.get("mcp_enabled", Boolean.class)),
                List.of(),
                row.get("version", Long.class),
                row.get("created_at", Instant.class),
                row.get("updated_at", Instant.class));
    }
}
