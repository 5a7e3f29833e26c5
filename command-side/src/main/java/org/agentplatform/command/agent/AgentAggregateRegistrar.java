package org.agentplatform.command.agent;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link Agent} aggregate. */
public final class AgentAggregateRegistrar {

    private AgentAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Agent.class);
    }
}
