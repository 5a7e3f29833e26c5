package org.agentplatform.infra.app.agent;

import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.agent.AgentProjection;
import org.agentplatform.query.agent.R2dbcAgentReads;
import org.agentplatform.query.feed.ChangeFeed;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Platform agents: their read model, and reads that keep each agent's placement in memory. */
@Configuration(proxyBeanMethods = false)
public class AgentsConfiguration {

    @Bean
    AgentProjection agentProjection(JdbcTemplate jdbc, R2dbcAgentReads agentReads) {
        return new AgentProjection(jdbc, agentReads.placementChanges());
    }

    @Bean(destroyMethod = "close")
    R2dbcAgentReads agentReads(DatabaseClient database, ReadModelWaits waits, ChangeFeed changeFeed) {
        return new R2dbcAgentReads(database, waits, changeFeed);
    }
}
