package org.agentplatform.api.processor;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Port: the event processors as this node sees them (where each stands against the store's head, which segments it
 * holds, what it has parked), and the retry of parked events, as {@code deadletters retry} does from the command line.
 */
public interface NodeProcessors {

    Mono<List<Processor>> processors();

    /** Asks the nodes to retry the processor's parked events; empty when there is no such processor. */
    Mono<Retry> retryDeadLetters(String processor);

    /**
     * A processor: the store's head and the position of its slowest segment here ({@code null} when it holds none here),
     * its segments in all and held here, its parked events and their sequences, and when the oldest was parked.
     */
    record Processor(String name, long head, @Nullable Long position, @Nullable Long lag, int segments, int segmentsHere,
            long parkedEvents, long parkedSequences, @Nullable Instant oldestParkedAt) {
    }

    /** A retry asked for: its id, and when it was asked. */
    record Retry(long id, String processor, Instant requestedAt) {
    }
}
