package org.agentplatform.api.terminal;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.GrantTerminalTicket;
import org.agentplatform.kernel.terminal.TerminalCommand.OpenTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalId;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.conversation.ConversationReads;
import org.agentplatform.query.instance.InstanceReads;
import org.agentplatform.query.instance.InstanceRecord;
import org.agentplatform.query.terminal.TerminalReads;
import org.agentplatform.query.terminal.TerminalRecord;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Terminal sessions: a create answers a single-use ticket for the terminal's WebSocket ({@link TerminalSocket}), for a
 * new terminal on the caller's running instance, or for one of its terminals to resume ({@code resumeTerminalId}).
 * Another owner's or an unknown instance or terminal is 404 {@code not_found}; an agent or conversation that is not
 * the caller's on that instance is 404 {@code agent_not_found}; a stopped instance or an ended terminal is 409.
 */
@RestController
final class TerminalRoutes {

    /** How long a read waits for the read model to show a terminal just opened or closed. */
    private static final Duration READ_WAIT = Duration.ofSeconds(5);

    private final Commands commands;
    private final InstanceReads instances;
    private final AgentReads agents;
    private final ConversationReads conversations;
    private final TerminalReads terminals;
    private final TerminalTickets tickets;
    private final Terminals shells;
    private final TerminalSettings settings;
    private final Clock clock;

    TerminalRoutes(Commands commands, InstanceReads instances, AgentReads agents, ConversationReads conversations, TerminalReads terminals,
            TerminalTickets tickets, Terminals shells, TerminalSettings settings, Clock clock) {
        this.commands = commands;
        this.instances = instances;
        this.agents = agents;
        this.conversations = conversations;
        this.terminals = terminals;
        this.tickets = tickets;
        this.shells = shells;
        this.settings = settings;
        this.clock = clock;
    }

    @PostMapping("/api/v1/instances/{instanceId}/terminal-sessions")
    Mono<ApiResponse<TicketView>> create(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @RequestBody(required = false) TerminalRequest body, ServerWebExchange exchange) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        TerminalRequest request = body == null ? new TerminalRequest(null, null, null) : body;
        AgentId agent = uuid("platformAgentId", request.platformAgentId(), AgentId::new);
        ConversationId conversation = uuid("conversationId", request.conversationId(), ConversationId::new);
        TerminalId resume = uuid("resumeTerminalId", request.resumeTerminalId(), TerminalId::new);
        if (!settings.enabled()) {
            throw new ApiException(ErrorCode.FORBIDDEN, "Terminals are turned off on this service (agent-platform.terminals.enabled)");
        }
        if (!shells.available()) {
            throw new ApiException(ErrorCode.AGENT_SERVICE_UNAVAILABLE, "This service cannot run terminals: util-linux 'script' is not installed");
        }
        Mono<InstanceRecord> owned = instances.find(caller.ownerId(), instance)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No instance " + instanceId)));
        return owned.flatMap(found -> resume != null
                        ? resumed(caller, found, resume, agent, conversation, exchange)
                        : opened(caller, found, agent, conversation, exchange))
                .map(ApiResponse::of);
    }

    /** The instance's terminals, newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping("/api/v1/instances/{instanceId}/terminal-sessions")
    Mono<ApiResponse<TerminalList>> list(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @ParameterObject PageParams paging) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        QueryParams.PageRequest page = paging.request();
        return instances.find(caller.ownerId(), instance)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No instance " + instanceId)))
                .flatMap(found -> terminals.list(caller.ownerId(), instance, page.before(), page.limit()))
                .map(found -> ApiResponse.of(new TerminalList(found.items().stream().map(TerminalView::of).toList(), found.nextCursor())));
    }

    @GetMapping("/api/v1/instances/{instanceId}/terminal-sessions/{terminalId}")
    Mono<ApiResponse<TerminalView>> get(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String terminalId) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        TerminalId terminal = PathIds.parse("terminalId", terminalId, TerminalId::new);
        return owned(caller, instance, terminal)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No terminal " + terminalId + " on instance " + instanceId)))
                .map(TerminalView::of)
                .map(ApiResponse::of);
    }

    /** Ends the terminal: its shell is ended and its connection closed; answers the ended terminal. */
    @DeleteMapping("/api/v1/instances/{instanceId}/terminal-sessions/{terminalId}")
    Mono<ApiResponse<TerminalView>> close(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String terminalId, ServerWebExchange exchange) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        TerminalId terminal = PathIds.parse("terminalId", terminalId, TerminalId::new);
        return owned(caller, instance, terminal)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No terminal " + terminalId + " on instance " + instanceId)))
                .flatMap(found -> commands.<Long>send(new EndTerminal(terminal, caller.ownerId(), TerminalEnd.CLOSED, null), caller, exchange,
                        ErrorCode.NOT_FOUND))
                .flatMap(version -> terminals.awaitVersion(caller.ownerId(), instance, terminal, version, READ_WAIT))
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.SERVICE_TIMEOUT, "The terminal ended; its record is not readable yet")))
                .map(TerminalView::of)
                .map(ApiResponse::of);
    }

    private Mono<TicketView> opened(Caller caller, InstanceRecord instance, AgentId agent, ConversationId conversation,
            ServerWebExchange exchange) {
        if (instance.status() != InstanceStatus.RUNNING) {
            return Mono.error(new ApiException(ErrorCode.CONFLICT, "Instance " + instance.id() + " is " + instance.status().wireName()
                    + "; start it to open a terminal"));
        }
        TerminalId terminal = TerminalId.random();
        return agentOn(caller, instance, agent)
                .then(conversationOn(caller, instance, agent, conversation))
                .then(Mono.defer(() -> {
                    TerminalTickets.Ticket ticket = tickets.issue(caller.ownerId(), instance.id(), terminal, caller.credentialId());
                    OpenTerminal open = new OpenTerminal(terminal, caller.ownerId(), instance.id(), agent, conversation, ticket.jti(),
                            ticket.expiresAt(), clock.instant().plus(settings.idleTimeout()));
                    return commands.send(open, caller, exchange, ErrorCode.NOT_FOUND).then(Mono.just(view(instance.id(), terminal, ticket, false,
                            exchange)));
                }));
    }

    private Mono<TicketView> resumed(Caller caller, InstanceRecord instance, TerminalId terminal, AgentId agent, ConversationId conversation,
            ServerWebExchange exchange) {
        return owned(caller, instance.id(), terminal)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No terminal " + terminal + " on instance " + instance.id())))
                .flatMap(found -> {
                    if (agent != null && !agent.equals(found.agentId())) {
                        return Mono.error(ApiException.invalidParam("platformAgentId", "Terminal " + terminal + " was not opened for agent " + agent));
                    }
                    if (conversation != null && !conversation.equals(found.conversationId())) {
                        return Mono.error(ApiException.invalidParam("conversationId",
                                "Terminal " + terminal + " was not opened for conversation " + conversation));
                    }
                    TerminalTickets.Ticket ticket = tickets.issue(caller.ownerId(), instance.id(), terminal, caller.credentialId());
                    return commands.send(new GrantTerminalTicket(terminal, caller.ownerId(), instance.id(), ticket.jti(), ticket.expiresAt()),
                            caller, exchange, ErrorCode.NOT_FOUND).then(Mono.just(view(instance.id(), terminal, ticket, true, exchange)));
                });
    }

    /** The caller's terminal on the instance, also one opened a moment ago; empty otherwise. */
    private Mono<TerminalRecord> owned(Caller caller, InstanceId instance, TerminalId terminal) {
        return terminals.findOpened(terminal, READ_WAIT)
                .filter(found -> found.ownerId().equals(caller.ownerId()) && found.instanceId().equals(instance));
    }

    /** The agent, when given, is the caller's and runs on the instance. */
    private Mono<Void> agentOn(Caller caller, InstanceRecord instance, AgentId agent) {
        if (agent == null) {
            return Mono.empty();
        }
        return agents.find(agent)
                .filter(found -> found.isOwnedBy(caller.ownerId()) && found.instanceId().equals(instance.id()))
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.AGENT_NOT_FOUND, "No agent " + agent + " on instance " + instance.id())))
                .then();
    }

    /** The conversation, when given, is the caller's, on the instance, and with the agent when one is given too. */
    private Mono<Void> conversationOn(Caller caller, InstanceRecord instance, AgentId agent, ConversationId conversation) {
        if (conversation == null) {
            return Mono.empty();
        }
        return conversations.find(conversation)
                .filter(found -> found.ownerId().equals(caller.ownerId()) && found.instanceId().equals(instance.id())
                        && (agent == null || found.agentId().equals(agent)))
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.AGENT_NOT_FOUND, "No conversation " + conversation + " on instance "
                        + instance.id() + (agent == null ? "" : " with agent " + agent))))
                .then();
    }

    private static TicketView view(InstanceId instance, TerminalId terminal, TerminalTickets.Ticket ticket, boolean resumed,
            ServerWebExchange exchange) {
        URI request = exchange.getRequest().getURI();
        String scheme = "https".equals(request.getScheme()) ? "wss" : "ws";
        String url = scheme + "://" + request.getRawAuthority() + TerminalSocket.path(instance, terminal);
        return new TicketView(terminal.toString(), instance.toString(), ticket.value(), ticket.expiresAt(), url, resumed);
    }

    /** An optional uuid string of the body, or 400 {@code invalid_param} naming it. */
    private static <T> T uuid(String param, String value, Function<UUID, T> id) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 36) {
                return id.apply(UUID.fromString(value));
            }
        } catch (IllegalArgumentException malformed) {
            // answered below
        }
        throw ApiException.invalidParam(param, "'" + param + "' must be a UUID string");
    }

    record TerminalRequest(String platformAgentId, String conversationId, String resumeTerminalId) {
    }

    /** The ticket for the terminal's WebSocket: pass it as {@code ?ticket=} or as the subprotocol {@code ticket.<ticket>}. */
    record TicketView(
            @JsonProperty("terminal_id") String terminalId,
            @JsonProperty("instance_id") String instanceId,
            String ticket,
            @JsonProperty("expires_at") Instant expiresAt,
            @JsonProperty("websocket_url") String websocketUrl,
            boolean resumed) {
    }

    /** A page of terminals; {@code next_cursor} is null on the last page. */
    record TerminalList(List<TerminalView> terminals, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }
}
