package org.agentplatform.command.operation;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link RuntimeOperation} aggregate. */
public final class RuntimeOperationAggregate {

    private RuntimeOperationAggregate() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(RuntimeOperation.class);
    }
}
