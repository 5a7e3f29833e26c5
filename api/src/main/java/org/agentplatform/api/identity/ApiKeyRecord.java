package org.agentplatform.api.identity;

import java.time.Instant;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;

/** A user API key as it may be shown: never its plaintext or hash. */
public record ApiKeyRecord(
        ApiKeyId id,
        OwnerId ownerId,
        String name,
        String keyPrefix,
        int rateLimitPerMinute,
        Instant expiresAt,
        Instant createdAt,
        Instant revokedAt) {
}
