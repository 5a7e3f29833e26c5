package org.agentplatform.infra.eventstore;

import java.time.Duration;
import java.time.Instant;
import org.agentplatform.kernel.FrameworkReplacement;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.GenericEventMessage;

/**
 * How a gap-aware token moves past an event, as Axon's JDBC engine moves it: the indexes it skips below the event stay
 * gaps (at most {@code maxGapOffset} below it) while the event is younger than {@code gapTimeout}, since a transaction
 * that took one of them may still commit; past an older event they are given up. The storage engine and the shared
 * stream both follow it, so a processor's token is the same whichever of them it read from.
 */
@FrameworkReplacement("Axon: JdbcEventStorageEngine's advancing of a GapAwareTrackingToken")
record GapRule(int maxGapOffset, Duration gapTimeout) {

    /** Whether the gaps below an event stamped {@code timestamp} are still kept. */
    boolean keepsGaps(Instant timestamp) {
        return timestamp.isAfter(GenericEventMessage.clock.instant().minus(gapTimeout));
    }

    /** {@code token} moved past the event at {@code index}, stamped {@code timestamp}. */
    GapAwareTrackingToken advance(GapAwareTrackingToken token, long index, Instant timestamp) {
        return token.advanceTo(index, keepsGaps(timestamp) ? maxGapOffset : 0);
    }
}
