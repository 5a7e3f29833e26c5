package org.agentplatform.query.agent;

import java.util.UUID;

/**
 * Told by the agent and instance projections, inside their transaction, that an agent's or an instance's row is
 * changing, so that this node's {@link PlacementCache} neither answers nor keeps its old placement from then on
 * (other nodes hear of it by the projection's notification).
 */
@FunctionalInterface
public interface PlacementChanges {

    /** For projections whose rows nobody caches (a point-in-time rebuild). */
    PlacementChanges NONE = key -> {
    };

    /** {@code key}, an agent's or an instance's id, changes in the current transaction. */
    void changing(UUID key);
}
