package org.agentplatform.api.operation;

import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Mono;

/** Port: puts a secret into the encrypted vault and answers the reference ({@code secret:<id>}) that stands for it. */
public interface SecretSealer {

    Mono<String> seal(OwnerId ownerId, String purpose, String plaintext);
}
