package org.agentplatform.api.terminal;

import java.time.Clock;
import java.util.Map;
import org.agentplatform.api.command.Commands;
import org.agentplatform.query.instance.InstanceReads;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.PathContainer;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.server.ServerWebExchange;

/** Routes a terminal's WebSocket path to {@link TerminalSocket}, ahead of the annotated routes. */
@Configuration(proxyBeanMethods = false)
class TerminalSockets {

    @Bean
    TerminalSocket terminalSocket(TerminalTickets tickets, Terminals terminals, Commands commands, InstanceReads instances,
            TerminalSettings settings, Clock clock) {
        return new TerminalSocket(tickets, terminals, commands, instances, settings, clock);
    }

    /** Each handshake gets the socket's handler for it ({@link TerminalSocket#forHandshake}: the subprotocols it offers). */
    @Bean
    HandlerMapping terminalSocketMapping(TerminalSocket socket) {
        return new SimpleUrlHandlerMapping(Map.of(TerminalSocket.PATTERN, socket), -1) {
            @Override
            protected Object lookupHandler(PathContainer lookupPath, ServerWebExchange exchange) throws Exception {
                Object handler = super.lookupHandler(lookupPath, exchange);
                return handler == null ? null : socket.forHandshake(exchange.getRequest().getHeaders());
            }
        };
    }
}
