package org.agentplatform.command;

import org.agentplatform.command.agent.AgentAggregate;
import org.agentplatform.command.conversation.ConversationAggregate;
import org.agentplatform.command.instance.InstanceAggregate;
import org.agentplatform.command.operation.RuntimeOperationAggregate;
import org.agentplatform.command.task.TaskAggregate;
import org.agentplatform.command.terminal.TerminalAggregate;
import org.agentplatform.command.webhook.WebhookAggregates;
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
        InstanceAggregate.register(configurer);
        RuntimeOperationAggregate.register(configurer);
        AgentAggregate.register(configurer);
        TaskAggregate.register(configurer);
        ConversationAggregate.register(configurer);
        WebhookAggregates.register(configurer);
        TerminalAggregate.register(configurer);
    }
}
