package org.agentplatform.command.task;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link Task} aggregate. */
public final class TaskAggregate {

    private TaskAggregate() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Task.class);
    }
}
