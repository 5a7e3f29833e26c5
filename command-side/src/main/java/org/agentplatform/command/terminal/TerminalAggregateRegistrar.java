package org.agentplatform.command.terminal;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link Terminal} aggregate. */
public final class TerminalAggregateRegistrar {

    private TerminalAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Terminal.class);
    }
}
