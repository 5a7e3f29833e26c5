package org.agentplatform.infra.app.terminal;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.agentplatform.api.terminal.TerminalSettings;
import org.agentplatform.api.terminal.TerminalTickets;
import org.agentplatform.command.terminal.TerminalHost;
import org.agentplatform.command.terminal.TerminalLifecycle;
import org.agentplatform.infra.adapter.identity.PlatformSigner;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.terminal.TerminalProjection;
import org.agentplatform.query.terminal.TerminalReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Terminal sessions: tickets signed with the platform key, the lifecycle (the shells are the provider's), the read model. */
@Configuration(proxyBeanMethods = false)
public class TerminalConfiguration {

    @Bean
    TerminalSettings terminalSettings(PlatformProperties properties) {
        return new TerminalSettings(properties.terminals().enabled(), properties.terminals().idleTimeout());
    }

    @Bean
    TerminalTickets terminalTickets(PlatformSigner platformSigner, PlatformProperties properties, Clock clock) {
        return new SignedTerminalTickets(platformSigner, properties.identity().issuer(), properties.terminals().ticketTtl(), clock);
    }

    @Bean
    TerminalLifecycle terminalLifecycle(TerminalHost terminalHost, JdbcTemplate jdbc, CommandGateway commands, ExecutorService processExecutor) {
        return new TerminalLifecycle(terminalHost, new JdbcOpenTerminals(jdbc), commands, processExecutor);
    }

    /** The lifecycle's events in order per instance (its terminals' events with the instance's), as it needs them. */
    @Bean
    ConfigurerModule terminalLifecyclePerInstance() {
        SequentialPerAggregatePolicy perAggregate = SequentialPerAggregatePolicy.instance();
        return configurer -> configurer.eventProcessing().registerSequencingPolicy(TerminalLifecycle.GROUP, config -> event -> {
            Object instance = TerminalLifecycle.sequence(event.getPayload());
            return instance != null ? instance : perAggregate.getSequenceIdentifierFor(event);
        });
    }

    @Bean
    TerminalProjection terminalProjection(JdbcTemplate jdbc) {
        return new TerminalProjection(jdbc);
    }

    @Bean
    TerminalReads terminalReads(DatabaseClient database, ReadModelWaits waits) {
        return new TerminalReads(database, waits);
    }
}
