package org.agentplatform.command;

import org.agentplatform.command.agent.AgentAggregateRegistrar;
import org.agentplatform.command.conversation.ConversationAggregateRegistrar;
import org.agentplatform.command.instance.InstanceAggregateRegistrar;
import org.agentplatform.command.operation.RuntimeOperationAggregateRegistrar;
import org.agentplatform.command.task.TaskAggregateRegistrar;
import org.agentplatform.command.terminal.TerminalAggregateRegistrar;
import org.agentplatform.command.webhook.WebhookAggregatesRegistrar;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.modelling.command.CommandTargetResolver;

/**
 * Registers the command side's event-sourced aggregates with Axon (they stay package-private), and how every one of
 * them finds a command's target ({@link CachedCommandTargets}).
 */
public final class CommandSideModule implements ConfigurerModule {

    @Override
    public void configureModule(Configurer configurer) {
        configurer.registerComponent(CommandTargetResolver.class, config -> new CachedCommandTargets());
        InstanceAggregateRegistrar.register(configurer);
        RuntimeOperationAggregateRegistrar.register(configurer);
        AgentAggregateRegistrar.register(configurer);
        TaskAggregateRegistrar.register(configurer);
        ConversationAggregateRegistrar.register(configurer);
        WebhookAggregatesRegistrar.register(configurer);
        TerminalAggregateRegistrar.register(configurer);
    }
}
