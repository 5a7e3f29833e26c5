package org.agentplatform.infra.terminal;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.agentplatform.api.terminal.TerminalSettings;
import org.agentplatform.api.terminal.TerminalTickets;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.terminal.TerminalLifecycle;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.identity.PlatformSigner;
import org.agentplatform.infra.local.terminal.LocalTerminals;
import org.agentplatform.query.ReadModelWaits;
import org.agentplatform.query.terminal.TerminalProjection;
import org.agentplatform.query.terminal.TerminalReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

/** Terminal sessions: tickets signed with the platform key, the local provider's shells, the read model and the lifecycle. */
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

    @Bean(destroyMethod = "close")
    LocalTerminals localTerminals(JdbcTemplate jdbc, CommandGateway commands, PlatformProperties properties) {
        PlatformProperties.Terminals terminals = properties.terminals();
        return new LocalTerminals(jdbc, properties.dataDir(), terminals.shell(), terminals.scrollback(),
                command -> ProcessCommands.send(commands, command, "terminal"));
    }

    @Bean
    TerminalLifecycle terminalLifecycle(LocalTerminals localTerminals, CommandGateway commands, ExecutorService processExecutor) {
        return new TerminalLifecycle(localTerminals, commands, processExecutor);
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
