package org.agentplatform.query.replay;

import java.time.Instant;
import java.util.List;
import org.axonframework.eventhandling.TrackedEventMessage;

/**
 * The event store as replays read it: each event with its own global index (as metadata, {@code GlobalIndex}, and as
 * its tracking token's position), deserialized as the processors see it.
 */
public interface StoredEvents {

    /** The events of one aggregate that occurred at or before {@code until}, in its order. */
    List<TrackedEventMessage<?>> ofAggregate(String aggregateIdentifier, Instant until);

    /** At most {@code limit} events after {@code globalIndex}, in global order. */
    List<TrackedEventMessage<?>> after(long globalIndex, int limit);

    /** The highest global index stored (0 for an empty store). */
    long head();
}
