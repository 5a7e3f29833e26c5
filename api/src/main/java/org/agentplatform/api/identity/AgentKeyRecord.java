package org.agentplatform.api.identity;

import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;

/** An agent API key ({@code bak_}) as it may be shown: never its plaintext or hash. */
public record AgentKeyRecord(
        UUID id,
        OwnerId ownerId,
        AgentId agentId,
        String name,
        String keyPrefix,
        Instant createdAt,
        Instant revokedAt) {

    /** Active keys an agent may have at once (contract). */
    public static final int MAX_ACTIVE = 3;
}
