package org.agentplatform.api.agent;

import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceId;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Whether an agent can take work now: its instance must be running, else 503 {@code agent_offline}. */
@Component
public final class AgentAvailability {

    private final Commands commands;

    AgentAvailability(Commands commands) {
        this.commands = commands;
    }

    public Mono<Readiness> serving(Caller caller, ServerWebExchange exchange, InstanceId instance) {
        return commands.<Readiness>send(new CheckInstanceReadiness(instance, null), caller, exchange, ErrorCode.AGENT_NOT_FOUND)
                .onErrorMap(ApiException.class, gone -> new ApiException(ErrorCode.AGENT_OFFLINE, "The agent's instance is gone"))
                .filter(Readiness::isServing)
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.AGENT_OFFLINE,
                        "The agent's instance is not running; start it and retry")));
    }
}
