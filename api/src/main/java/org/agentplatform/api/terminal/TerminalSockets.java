package org.agentplatform.api.terminal;

import java.time.Clock;
import java.util.Map;
import org.agentplatform.api.command.Commands;
import org.agentplatform.query.instance.InstanceReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;

/** Routes a terminal's WebSocket path to {@link TerminalSocket}, ahead of the annotated routes. */
@Configuration(proxyBeanMethods = false)
class TerminalSockets {

    @Bean
    TerminalSocket terminalSocket(TerminalTickets tickets, Terminals terminals, Commands commands, InstanceReads instances,
            TerminalSettings settings, Clock clock) {
        return new TerminalSocket(tickets, terminals, commands, instances, settings, clock);
    }

    @Bean
    HandlerMapping terminalSocketMapping(TerminalSocket socket) {
        return new SimpleUrlHandlerMapping(Map.of(TerminalSocket.PATTERN, socket), -1);
    }
}
