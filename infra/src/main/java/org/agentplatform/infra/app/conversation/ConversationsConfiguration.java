package org.agentplatform.infra.app.conversation;

import java.util.concurrent.ExecutorService;
import org.agentplatform.command.conversation.ConversationDispatcher;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.WriteBatching;
import org.agentplatform.query.conversation.ConversationProjection;
import org.agentplatform.query.conversation.ConversationReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Conversations: their turns' dispatch to the agent's runtime (through its port), read model and reads. */
@Configuration(proxyBeanMethods = false)
public class ConversationsConfiguration {

    @Bean
    ConversationDispatcher conversationDispatcher(CommandGateway commands, AgentRuntime agentRuntime, ExecutorService processExecutor) {
        return new ConversationDispatcher(commands, agentRuntime, processExecutor);
    }

    @Bean
    ConversationProjection conversationProjection(JdbcTemplate jdbc, WriteBatching batching) {
        return new ConversationProjection(jdbc, batching);
    }

    @Bean
    ConversationReads conversationReads(DatabaseClient database, ReadModelWaits waits) {
        return new ConversationReads(database, waits);
    }
}
