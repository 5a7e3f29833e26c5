package org.agentplatform.infra.app;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import java.util.List;
import org.agentplatform.infra.database.DatabaseConfiguration;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.eventstore.CommitAnnouncer;
import org.agentplatform.infra.eventstore.ProcessorDeadLetters;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.feed.PostgresChangeFeed;
import org.agentplatform.query.operation.OperationViewProjection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The node's one LISTEN connection, waking streams and read-your-write waits on the projections' commits. */
@Configuration(proxyBeanMethods = false)
public class ChangeFeedConfiguration {

    @Bean(destroyMethod = "close")
    PostgresChangeFeed changeFeed(DatabaseServer server) {
        return new PostgresChangeFeed(new PostgresqlConnectionFactory(DatabaseConfiguration.r2dbc(server.endpoint())),
                List.of(OperationViewProjection.CHANNEL, ChannelLog.NOTIFICATIONS, ReadModelWaits.CHANNEL, ProcessorDeadLetters.RETRY_CHANNEL,
                        CommitAnnouncer.CHANNEL));
    }

    @Bean
    ReadModelWaits readModelWaits(ChangeFeed changeFeed) {
        return new ReadModelWaits(changeFeed);
    }
}
