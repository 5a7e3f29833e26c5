package org.agentplatform.query.agent;

import java.time.Duration;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.query.Page;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/** Reads of the agent read model. Access rules (owner, public) are the caller's to apply. */
public interface AgentReads {

    /** The agent unless it is unknown or deleted. */
    Mono<AgentRecord> find(AgentId agentId);

    /**
     * As {@link #find}, also of an agent created a moment ago that the read model does not show yet (the event store
     * holds it): that one once its projection commits, waiting up to {@code wait}, then
     * {@link org.agentplatform.query.ReadModelBehind}. Empty for an unknown or deleted agent.
     */
    Mono<AgentRecord> findAccepted(AgentId agentId, Duration wait);

    /** The agent (without its skills) and its instance's status, in one read; empty as {@link #find}. */
    Mono<AgentOnInstance> findOnInstance(AgentId agentId);

    /** A page of the owner's agents and every public agent, newest first, after {@code before} (a page's cursor). */
    Mono<Page<AgentRecord>> visibleTo(OwnerId ownerId, @Nullable Long before, int limit);

    Mono<AgentRecord> awaitVersion(AgentId agentId, long version, Duration wait);
}
