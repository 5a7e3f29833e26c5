package org.agentplatform.api.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.query.agent.AgentRecord;
import org.jspecify.annotations.Nullable;

/** The wire shape of a platform agent; {@code owned} tells the caller whether it is theirs. */
record AgentView(
        String id,
        String name,
        @JsonProperty("instance_id") String instanceId,
        String model,
        String visibility,
        @JsonProperty("mcp_enabled") boolean mcpEnabled,
        boolean owned,
        @JsonProperty("template_id") @Nullable String templateId,
        List<SkillView> skills,
        @JsonProperty("created_at") Instant createdAt,
        @JsonProperty("updated_at") Instant updatedAt) {

    record SkillView(String name, @Nullable String version, boolean enabled) {
    }

    static AgentView of(AgentRecord agent, OwnerId caller) {
        return new AgentView(agent.id().toString(), agent.name(), agent.instanceId().toString(), agent.model(),
                agent.visibility().wireName(), agent.mcpEnabled(), agent.isOwnedBy(caller), agent.templateId(),
                agent.skills().stream().map(skill -> new SkillView(skill.name(), skill.version(), skill.enabled())).toList(),
                agent.createdAt(), agent.updatedAt());
    }
}
