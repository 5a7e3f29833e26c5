package org.agentplatform.command.operation;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link RuntimeOperation} aggregate. */
public final class RuntimeOperationAggregateRegistrar {

    private RuntimeOperationAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(RuntimeOperation.class);
    }
}
