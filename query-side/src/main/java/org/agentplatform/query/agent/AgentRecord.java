package org.agentplatform.query.agent;

import java.time.Instant;
import java.util.List;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/** A platform agent as the read model knows it, with its installed skills. */
public record AgentRecord(
        AgentId id,
        OwnerId ownerId,
        InstanceId instanceId,
        String name,
        String model,
        String templateId,
        Visibility visibility,
        boolean mcpEnabled,
        List<Skill> skills,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    public AgentRecord {
        skills = List.copyOf(skills);
    }

    public boolean isOwnedBy(OwnerId owner) {
        return ownerId.equals(owner);
    }

    /** Whether {@code owner} may read it: its owner, or anyone when it is public. */
    public boolean isVisibleTo(OwnerId owner) {
        return isOwnedBy(owner) || visibility == Visibility.PUBLIC;
    }

    public record Skill(String name, String version, boolean enabled) {
    }
}
