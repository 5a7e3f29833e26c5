package org.agentplatform.api.identity;

import java.time.Instant;
import java.util.Map;

/** Port: the built-in RS256 issuer of user access tokens, and its public JWKS. */
public interface AccessTokenIssuer {

    IssuedToken issue(UserAccount user);

    /** The JSON Web Key Set of the public signing keys, as served at {@code /.well-known/jwks.json}. */
    Map<String, Object> publicJwks();

    record IssuedToken(String value, Instant issuedAt, Instant expiresAt) {

        @Override
        public String toString() {
            return "IssuedToken[expiresAt=" + expiresAt + "]";
        }
    }
}
