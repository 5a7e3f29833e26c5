package org.agentplatform.query.agent;

import java.time.Instant;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.agent.AgentEvent.AgentCreated;
import org.agentplatform.kernel.agent.AgentEvent.AgentDeleted;
import org.agentplatform.kernel.agent.AgentEvent.AgentMcpToggled;
import org.agentplatform.kernel.agent.AgentEvent.AgentTemplateApplied;
import org.agentplatform.kernel.agent.AgentEvent.AgentUpdated;
import org.agentplatform.kernel.agent.AgentEvent.AgentVisibilityChanged;
import org.agentplatform.kernel.agent.AgentEvent.SkillInstalled;
import org.agentplatform.kernel.agent.AgentEvent.SkillToggled;
import org.agentplatform.kernel.agent.AgentEvent.SkillUninstalled;
import org.agentplatform.kernel.agent.AgentId;
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

/** Agent events into {@code agent_view} and {@code agent_skill_view}. */
@ProcessingGroup(AgentProjection.GROUP)
public class AgentProjection {

    public static final String GROUP = "agent-projection";

    private final JdbcTemplate jdbc;
    private final PlacementChanges placements;

    public AgentProjection(JdbcTemplate jdbc) {
        this(jdbc, PlacementChanges.NONE);
    }

    public AgentProjection(JdbcTemplate jdbc, PlacementChanges placements) {
        this.jdbc = jdbc;
        this.placements = placements;
    }

    @EventHandler
    void on(AgentCreated event, @SequenceNumber long sequence, @Timestamp Instant at, @MetaDataValue(GlobalIndex.KEY) Long index,
            TrackingToken token) {
        placements.changing(event.agentId().value());
        jdbc.update("INSERT INTO agent_view (id, owner_id, instance_id, name, model, visibility, mcp_enabled, version, created_at,"
                        + " updated_at, list_offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.agentId().value(), event.ownerId().value(), event.instanceId().value(), event.name(), event.model(),
                event.visibility().wireName(), event.mcpEnabled(), sequence, SqlTime.of(at), SqlTime.of(at),
                ChannelLog.globalIndex(index, token));
        ReadModelWaits.changed(jdbc, event.agentId());
    }

    @EventHandler
    void on(AgentUpdated event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.agentId(), "name = COALESCE(?, name), model = COALESCE(?, model)", sequence, at, event.name(), event.model());
    }

    @EventHandler
    void on(AgentTemplateApplied event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.agentId(), "template_id = ?, model = COALESCE(?, model)", sequence, at, event.templateId(), event.model());
    }

    @EventHandler
    void on(AgentDeleted event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.agentId(), "deleted = TRUE", sequence, at);
    }

    @EventHandler
    void on(AgentVisibilityChanged event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.agentId(), "visibility = ?", sequence, at, event.visibility().wireName());
    }

    @EventHandler
    void on(AgentMcpToggled event, @SequenceNumber long sequence, @Timestamp Instant at) {
        change(event.agentId(), "mcp_enabled = ?", sequence, at, event.mcpEnabled());
    }

    @EventHandler
    void on(SkillInstalled event, @SequenceNumber long sequence, @Timestamp Instant at) {
        if (change(event.agentId(), "", sequence, at)) {
            jdbc.update("INSERT INTO agent_skill_view (agent_id, name, version, enabled, updated_at) VALUES (?, ?, ?, ?, ?)"
                            + " ON CONFLICT (agent_id, name) DO UPDATE SET version = EXCLUDED.version, enabled = EXCLUDED.enabled,"
                            + " updated_at = EXCLUDED.updated_at",
                    event.agentId().value(), event.name(), event.version(), event.enabled(), SqlTime.of(at));
        }
    }

    @EventHandler
    void on(SkillToggled event, @SequenceNumber long sequence, @Timestamp Instant at) {
        if (change(event.agentId(), "", sequence, at)) {
            jdbc.update("INSERT INTO agent_skill_view (agent_id, name, enabled, updated_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (agent_id, name) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at",
                    event.agentId().value(), event.name(), event.enabled(), SqlTime.of(at));
        }
    }

    @EventHandler
    void on(SkillUninstalled event, @SequenceNumber long sequence, @Timestamp Instant at) {
        if (change(event.agentId(), "", sequence, at)) {
            jdbc.update("DELETE FROM agent_skill_view WHERE agent_id = ? AND name = ?", event.agentId().value(), event.name());
        }
    }

    /** Applies {@code assignments} and moves the version on; false when the row already saw this event (a replay). */
    private boolean change(AgentId agent, String assignments, long sequence, Instant at, Object... values) {
        Object[] arguments = new Object[values.length + 4];
        System.arraycopy(values, 0, arguments, 0, values.length);
        arguments[values.length] = sequence;
        arguments[values.length + 1] = SqlTime.of(at);
        arguments[values.length + 2] = agent.value();
        arguments[values.length + 3] = sequence;
        String set = assignments.isEmpty() ? "" : assignments + ", ";
        placements.changing(agent.value());
        ReadModelWaits.changed(jdbc, agent);
        return jdbc.update("UPDATE agent_view SET " + set + "version = ?, updated_at = ? WHERE id = ? AND version < ?", arguments) == 1;
    }
}
