package org.agentplatform.api.auth;

import java.util.Objects;
import org.agentplatform.kernel.identity.OwnerId;

/**
 * Who is calling: the owner every credential maps to, the credential itself (for quotas and the
 * audit trail) and the credential's per-minute quota.
 */
public record Caller(OwnerId ownerId, String credentialId, CredentialKind kind, int rateLimitPerMinute) {

    public Caller {
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(credentialId, "credentialId");
        Objects.requireNonNull(kind, "kind");
    }

    public enum CredentialKind {
        API_KEY,
        USER_JWT,
        EXTERNAL_JWT
    }
}
