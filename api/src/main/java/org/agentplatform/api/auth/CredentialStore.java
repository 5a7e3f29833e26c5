package org.agentplatform.api.auth;

import java.util.UUID;
import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Mono;

/** Port: where authentication looks credentials up. Implemented in infra; failures mean "store unreachable". */
public interface CredentialStore {

    /** The key whose SHA-256 is {@code hash}, revoked or expired ones included; empty when unknown. */
    Mono<StoredApiKey> findApiKey(byte[] hash);

    /** The owner an external identity provider's subject maps to, created on first sight. */
    Mono<OwnerId> ownerOfExternalSubject(String issuer, String subject);

    /** The owner of the built-in user {@code userId} when that user exists and is not disabled; empty otherwise. */
    Mono<OwnerId> ownerOfActiveUser(UUID userId);
}
