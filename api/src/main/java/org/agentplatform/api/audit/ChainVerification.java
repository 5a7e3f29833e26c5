package org.agentplatform.api.audit;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Port: re-checks the whole audit chain as it is stored now (every link, the Merkle tree, every signed checkpoint), as
 * {@code audit verify} does from the command line. One check runs at a time on a node; another asked for meanwhile is
 * refused ({@link #verify} answers empty).
 */
public interface ChainVerification {

    Mono<Result> verify();

    /** How many events matched, and the first thing that does not (naming its position, global index and event), if any. */
    record Result(long checked, @Nullable String mismatch, Instant verifiedAt) {

        public boolean ok() {
            return mismatch == null;
        }
    }
}
