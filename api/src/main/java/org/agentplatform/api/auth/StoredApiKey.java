package org.agentplatform.api.auth;

import java.time.Instant;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;

/** What the key store knows of a key found by its hash. */
public record StoredApiKey(ApiKeyId id, OwnerId ownerId, int rateLimitPerMinute, Instant expiresAt, Instant revokedAt) {

    public boolean isRevoked() {
        return revokedAt != null;
    }

    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }
}
