package org.agentplatform.command.instance;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link Instance} aggregate. */
public final class InstanceAggregateRegistrar {

    private InstanceAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Instance.class);
    }
}
