package org.agentplatform.query.agent;

import java.time.Duration;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of the agent read model. Access rules (owner, public) are the caller's to apply. */
public interface AgentReads {

    /** The agent unless it is unknown or deleted. */
    Mono<AgentRecord> find(AgentId agentId);

    /** The agent (without its skills) and its instance's status, in one read; empty as {@link #find}. */
    Mono<AgentOnInstance> findOnInstance(AgentId agentId);

    /** The owner's agents and every public agent, newest first. */
    Flux<AgentRecord> visibleTo(OwnerId ownerId);

    Mono<AgentRecord> awaitVersion(AgentId agentId, long version, Duration wait);
}
