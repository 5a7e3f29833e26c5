package org.agentplatform.api.identity;

import java.time.Instant;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.query.Page;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Port: the built-in identity store (users, user API keys and agent API keys). Implemented in infra. */
public interface IdentityDirectory {

    /** The user with this email, compared case-insensitively; empty when none. */
    Mono<UserAccount> findUserByEmail(String email);

    Mono<ApiKeyRecord> createApiKey(NewApiKey key);

    /** A page of the owner's keys that are not revoked, newest first, after {@code before} (a page's cursor). */
    Mono<Page<ApiKeyRecord>> listApiKeys(OwnerId ownerId, @Nullable Long before, int limit);

    /** Revokes the owner's key; empty when the owner has no such unrevoked key. */
    Mono<ApiKeyRecord> revokeApiKey(OwnerId ownerId, ApiKeyId id, Instant revokedAt);

    /** Stores an agent key in a free one of its agent's {@link AgentKeyRecord#MAX_ACTIVE} slots; empty when none is free. */
    Mono<AgentKeyRecord> createAgentKey(AgentKeyRecord key, byte[] keyHash);

    /** The agent's keys that are not revoked, newest first. */
    Flux<AgentKeyRecord> listAgentKeys(AgentId agentId);

    /** Revokes the agent's key; empty when the agent has no such unrevoked key. */
    Mono<AgentKeyRecord> revokeAgentKey(AgentId agentId, UUID keyId, Instant revokedAt);
}
