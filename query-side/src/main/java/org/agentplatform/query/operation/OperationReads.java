package org.agentplatform.query.operation;

import java.time.Duration;
import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.operation.OperationId;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of the operation read model and its event stream. */
public interface OperationReads {

    Mono<OperationRecord> find(OperationId operationId);

    /** As {@link #find}, and when the read model does not show it (yet), as its stored events make it ({@link StoredOperations}). */
    Mono<OperationRecord> findAccepted(OperationId operationId);

    /** The operation's events after {@code sequence}, in order. */
    Flux<OperationEventRecord> eventsAfter(OperationId operationId, long sequence);

    /**
     * The operation at {@code sequence} or later once a command stored it: from the read model when it shows it within
     * {@code wait}, else as its stored events make it.
     */
    Mono<OperationRecord> awaitSequence(OperationId operationId, long sequence, Duration wait);

    /** The operation once it is terminal; empty if not within {@code wait}. */
    Mono<OperationRecord> awaitTerminal(OperationId operationId, Duration wait);

    /** The owner's newest operation on a resource (for example a skill of an agent) created after {@code since}. */
    Mono<OperationRecord> latestOnResource(OwnerId ownerId, String resourceKey, Instant since);
}
