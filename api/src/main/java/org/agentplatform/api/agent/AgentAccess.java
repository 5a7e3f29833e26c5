package org.agentplatform.api.agent;

import java.time.Duration;
import java.util.UUID;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.query.agent.AgentOnInstance;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.agent.AgentRecord;
import reactor.core.publisher.Mono;

/**
 * Who may read an agent: unknown (or not even a possible id) is 404 {@code agent_not_found}; another
 * owner's private agent is 403 {@code forbidden}; a public one can be read by anyone. An agent created a moment ago
 * (its {@code agent/create} operation succeeded) that the read model does not show yet is waited for up to
 * {@link #CREATED_WAIT}, never 404; past that, 504 {@code service_timeout} with {@code Retry-After}.
 */
public final class AgentAccess {

    static final Duration CREATED_WAIT = Duration.ofSeconds(5);

    private AgentAccess() {
    }

    public static AgentId parse(String agentId) {
        if (agentId.isEmpty() || agentId.length() > PathIds.MAX_LENGTH) {
            throw ApiException.invalidParam("agentId", "'agentId' must be 1 to " + PathIds.MAX_LENGTH + " characters");
        }
        try {
            return new AgentId(UUID.fromString(agentId));
        } catch (IllegalArgumentException notAnAgentId) {
            throw new ApiException(ErrorCode.AGENT_NOT_FOUND, "No agent " + agentId);
        }
    }

    public static Mono<AgentRecord> readable(AgentReads agents, AgentId agent, OwnerId caller) {
        return agents.findAccepted(agent, CREATED_WAIT)
                .switchIfEmpty(Mono.error(() -> notFound(agent)))
                .flatMap(found -> found.isVisibleTo(caller) ? Mono.just(found) : Mono.error(forbidden(agent)));
    }

    /** As {@link #readable}, with its instance's status from the same read (for giving the agent work). */
    public static Mono<AgentOnInstance> readableOnInstance(AgentReads agents, AgentId agent, OwnerId caller) {
        return agents.findOnInstance(agent)
                .switchIfEmpty(Mono.defer(() -> agents.findAccepted(agent, CREATED_WAIT).flatMap(created -> agents.findOnInstance(agent))))
                .switchIfEmpty(Mono.error(() -> notFound(agent)))
                .flatMap(found -> found.agent().isVisibleTo(caller) ? Mono.just(found) : Mono.error(forbidden(agent)));
    }

    private static ApiException notFound(AgentId agent) {
        return new ApiException(ErrorCode.AGENT_NOT_FOUND, "No agent " + agent);
    }

    private static ApiException forbidden(AgentId agent) {
        return new ApiException(ErrorCode.FORBIDDEN, "Agent " + agent + " belongs to another owner");
    }
}
