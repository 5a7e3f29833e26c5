package org.agentplatform.api.identity;

import java.time.Instant;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Port: the built-in identity store (users and user API keys). Implemented in infra. */
public interface IdentityDirectory {

    /** The user with this email, compared case-insensitively; empty when none. */
    Mono<UserAccount> findUserByEmail(String email);

    Mono<ApiKeyRecord> createApiKey(NewApiKey key);

    /** The owner's keys that are not revoked, newest first. */
    Flux<ApiKeyRecord> listApiKeys(OwnerId ownerId);

    /** Revokes the owner's key; empty when the owner has no such unrevoked key. */
    Mono<ApiKeyRecord> revokeApiKey(OwnerId ownerId, ApiKeyId id, Instant revokedAt);
}
