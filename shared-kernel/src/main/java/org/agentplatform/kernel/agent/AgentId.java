package org.agentplatform.kernel.agent;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A platform agent, projected from the runtime's agent by a succeeded {@code agent/create}. */
public record AgentId(UUID value) {

    public AgentId {
        Objects.requireNonNull(value, "value");
    }

    public static AgentId random() {
        return new AgentId(RandomIds.uuid());
    }

    public static AgentId of(String value) {
        return new AgentId(UUID.fromString(value));
    }

    /** The same id for the same name, always: lets a retried or replayed step create the same thing once. */
    public static AgentId derivedFrom(String name) {
        return new AgentId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
