package org.agentplatform.api.identity;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Mono;

/**
 * Port: erases an owner's personal content by destroying its data keys (crypto-shredding): every read, stream, export
 * and {@code as_of} of it answers {@code "[erased]"} from then on and its uploaded files are deleted, while the event
 * store, its chain and its proofs stay as they were. Recorded as an {@code OwnerContentErased} event with {@code audit}
 * as its metadata.
 */
public interface ContentErasure {

    /** What an erasure did: when, how many data keys lost their material, how many uploaded files were deleted. */
    record Erased(OwnerId ownerId, Instant erasedAt, int keysDestroyed, int filesDeleted) {
    }

    Mono<Erased> erase(OwnerId owner, Map<String, ?> audit);
}
