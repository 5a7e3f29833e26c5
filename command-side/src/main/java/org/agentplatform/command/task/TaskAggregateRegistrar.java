package org.agentplatform.command.task;

import org.agentplatform.command.CachedAggregates;
import org.axonframework.config.Configurer;

/** Registers the package-private {@link Task} aggregate, cached between its commands. */
public final class TaskAggregateRegistrar {

    private TaskAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(CachedAggregates.of(Task.class));
    }
}
