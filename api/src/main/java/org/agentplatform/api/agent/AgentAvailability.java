package org.agentplatform.api.agent;

import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.agent.AgentOnInstance;
import org.agentplatform.query.instance.InstanceReads;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Whether an agent can take work now: its instance must be running, else 503 {@code agent_offline}. The
 * instance's read model answers (a read, not a command: asking the instance aggregate would queue every
 * request of an instance behind its lock); the runtime fences work sent to an epoch that has passed.
 */
@Component
public final class AgentAvailability {

    private final InstanceReads instances;

    AgentAvailability(InstanceReads instances) {
        this.instances = instances;
    }

    /** The runtime epoch the instance serves at. */
    public Mono<Long> serving(InstanceId instance) {
        return instances.find(instance)
                .flatMap(found -> epoch(found.status(), found.runtimeEpoch()))
                .switchIfEmpty(Mono.error(() -> gone()));
    }

    /** The runtime epoch the agent's instance serves at, from the read that found the agent. */
    public static Mono<Long> serving(AgentOnInstance placed) {
        return placed.instanceStatus() == null ? Mono.error(gone()) : epoch(placed.instanceStatus(), placed.runtimeEpoch());
    }

    private static Mono<Long> epoch(InstanceStatus status, long runtimeEpoch) {
        if (status.isServing()) {
            return Mono.just(runtimeEpoch);
        }
        if (status == InstanceStatus.DESTROYED || status == InstanceStatus.FAILED) {
            return Mono.error(gone());
        }
        return Mono.error(new ApiException(ErrorCode.AGENT_OFFLINE, "The agent's instance is " + status.wireName()
                + "; start it and retry"));
    }

    private static ApiException gone() {
        return new ApiException(ErrorCode.AGENT_OFFLINE, "The agent's instance is gone");
    }
}
