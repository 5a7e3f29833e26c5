package org.agentplatform.api.identity;

import java.time.Instant;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;

/** A key about to be stored: its SHA-256 and display prefix, not its plaintext. */
public record NewApiKey(
        ApiKeyId id,
        OwnerId ownerId,
        String name,
        String keyPrefix,
        byte[] keyHash,
        int rateLimitPerMinute,
        Instant expiresAt,
        Instant createdAt) {
}
