package org.agentplatform.api.identity;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.agentplatform.kernel.identity.OwnerId;

/** Port: the built-in RS256 issuer of user access tokens, and its public JWKS. */
public interface AccessTokenIssuer {

    IssuedToken issue(UserAccount user);

    /**
     * A console session's token for an {@code oag_} key: it names the key by id and SHA-256 (never the key), so every
     * request made with it is the key's, checked against the key store as the key itself would be (a revoked key ends
     * its sessions at once). As short-lived as a login token.
     */
    IssuedToken issueForKey(OwnerId ownerId, ApiKeyId keyId, byte[] keySha256);

    /** The JSON Web Key Set of the public signing keys, as served at {@code /.well-known/jwks.json}. */
    Map<String, Object> publicJwks();

    record IssuedToken(String value, Instant issuedAt, Instant expiresAt) {

        @Override
        public String toString() {
            return "IssuedToken[expiresAt=" + expiresAt + "]";
        }
    }
}
