package org.agentplatform.command.conversation;

import org.agentplatform.command.CachedAggregates;
import org.axonframework.config.Configurer;

/** Registers the package-private {@link Conversation} aggregate, cached between its commands. */
public final class ConversationAggregateRegistrar {

    private ConversationAggregateRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(CachedAggregates.of(Conversation.class));
    }
}
