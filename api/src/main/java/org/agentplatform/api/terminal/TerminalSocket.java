package org.agentplatform.api.terminal;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.RequestIds;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.kernel.terminal.TerminalCommand.AttachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;
import org.agentplatform.kernel.terminal.TerminalCommand.DetachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalId;
import org.agentplatform.query.instance.InstanceReads;
import org.agentplatform.query.instance.InstanceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A terminal's WebSocket. The ticket (query parameter {@code ticket}, or the subprotocol {@code ticket.<ticket>}) is
 * verified, then redeemed through the Terminal aggregate, so it works once on any node. Binary or text frames carry
 * the terminal's bytes both ways, except a text frame holding {@code {"type":"resize","cols":C,"rows":R}}. The server
 * pings every 30 s. Refusals and ends are close frames whose reason begins with a word a client can act on:
 * {@code 4400 ticket_missing} / {@code protocol_refused}, {@code 4401 ticket_invalid} / {@code ticket_expired}, {@code 4403 ticket_refused},
 * {@code 4409 ticket_used}, {@code 4404 terminal_ended}, {@code 4001 replaced}, {@code 1000 shell_exited}, {@code 1001}
 * with the end's reason.
 */
public final class TerminalSocket implements WebSocketHandler {

    /** The handler mapping's pattern; {@link #path} builds one. */
    public static final String PATTERN = "/api/v1/instances/{instanceId}/terminal-sessions/{terminalId}/attach";
    public static final String SUBPROTOCOL = "terminal.v1";
    private static final String TICKET_PROTOCOL = "ticket.";
    private static final Pattern PATH = Pattern.compile("/api/v1/instances/([0-9a-fA-F-]{36})/terminal-sessions/([0-9a-fA-F-]{36})/attach");
    private static final Duration PING = Duration.ofSeconds(30);
    private static final int DEFAULT_COLS = 80;
    private static final int DEFAULT_ROWS = 24;
    private static final int MAX_SIZE = 1000;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Logger log = LoggerFactory.getLogger(TerminalSocket.class);

    private final TerminalTickets tickets;
    private final Terminals terminals;
    private final Commands commands;
    private final InstanceReads instances;
    private final TerminalSettings settings;
    private final Clock clock;

    public TerminalSocket(TerminalTickets tickets, Terminals terminals, Commands commands, InstanceReads instances, TerminalSettings settings,
            Clock clock) {
        this.tickets = tickets;
        this.terminals = terminals;
        this.commands = commands;
        this.instances = instances;
        this.settings = settings;
        this.clock = clock;
    }

    public static String path(InstanceId instance, TerminalId terminal) {
        return "/api/v1/instances/" + instance + "/terminal-sessions/" + terminal + "/attach";
    }

    @Override
    public List<String> getSubProtocols() {
        return List.of(SUBPROTOCOL);
    }

    /**
     * The handler of one handshake: it speaks {@value #SUBPROTOCOL} and the {@code ticket.<ticket>} subprotocols the client
     * offers, so a client that offers its ticket as its only subprotocol gets it named in the 101 (a browser or {@code ws}
     * fails a handshake whose answer names none of the protocols it offered).
     */
    public WebSocketHandler forHandshake(HttpHeaders headers) {
        List<String> spoken = new ArrayList<>(List.of(SUBPROTOCOL));
        offered(headers).filter(protocol -> protocol.startsWith(TICKET_PROTOCOL)).forEach(spoken::add);
        List<String> protocols = List.copyOf(spoken);
        return new WebSocketHandler() {
            @Override
            public List<String> getSubProtocols() {
                return protocols;
            }

            @Override
            public Mono<Void> handle(WebSocketSession session) {
                return TerminalSocket.this.handle(session);
            }
        };
    }

    @Override
    public Mono<Void> handle(WebSocketSession session) {
        HandshakeInfo handshake = session.getHandshakeInfo();
        if (handshake.getSubProtocol() == null && offered(handshake.getHeaders()).findAny().isPresent()) {
            // the client offered protocols and none is ours: it will fail the handshake, so the ticket is left unused
            return close(session, 4400, "protocol_refused: offer the subprotocol " + SUBPROTOCOL + " or " + TICKET_PROTOCOL + "<ticket>");
        }
        Matcher path = PATH.matcher(handshake.getUri().getRawPath());
        String ticket = ticket(handshake);
        if (ticket == null) {
            return close(session, 4400, "ticket_missing: pass ?ticket= or the subprotocol " + TICKET_PROTOCOL + "<ticket>");
        }
        if (!path.matches()) {
            return close(session, 4403, "ticket_refused: not the address of a terminal");
        }
        TerminalTickets.Grant grant;
        try {
            grant = tickets.verify(ticket);
        } catch (TerminalTickets.Refused refused) {
            return close(session, 4401, (refused.expired() ? "ticket_expired: " : "ticket_invalid: ") + refused.getMessage());
        }
        if (!grant.instance().toString().equalsIgnoreCase(path.group(1)) || !grant.terminal().toString().equalsIgnoreCase(path.group(2))) {
            return close(session, 4403, "ticket_refused: the ticket is for another terminal");
        }
        Map<String, String> audit = Map.of(AuditMetadata.OWNER_ID, grant.owner().toString(), AuditMetadata.ACTOR, grant.actor(),
                AuditMetadata.REQUEST_ID, RequestIds.of(session.getAttributes()));
        return commands.<Attachment>send(new AttachTerminal(grant.terminal(), grant.jti(), clock.instant()), audit, ErrorCode.NOT_FOUND)
                .flatMap(attachment -> serving(attachment, audit).then(Mono.defer(() -> attached(session, attachment, audit, handshake))))
                .onErrorResume(ApiException.class, refused -> close(session, switch (refused.code()) {
                    case CONFLICT -> 4409;
                    case FORBIDDEN -> 4403;
                    default -> 4404;
                }, switch (refused.code()) {
                    case CONFLICT -> "ticket_used: ";
                    case FORBIDDEN -> "ticket_refused: ";
                    default -> "terminal_ended: ";
                } + refused.getMessage()));
    }

    /** The instance still serves; else the terminal ends with it. */
    private Mono<Void> serving(Attachment attachment, Map<String, String> audit) {
        return instances.find(attachment.instanceId())
                .map(InstanceRecord::status)
                .defaultIfEmpty(InstanceStatus.DESTROYED)
                .flatMap(status -> {
                    if (status == InstanceStatus.RUNNING) {
                        return Mono.empty();
                    }
                    TerminalEnd reason = switch (status) {
                        case DESTROYED -> TerminalEnd.INSTANCE_DESTROYED;
                        case RESTARTING -> TerminalEnd.INSTANCE_RESTARTED;
                        default -> TerminalEnd.INSTANCE_STOPPED;
                    };
                    return end(attachment, reason, audit).then(Mono.error(new ApiException(ErrorCode.NOT_FOUND, "instance "
                            + attachment.instanceId() + " is " + status.wireName())));
                });
    }

    private Mono<Void> attached(WebSocketSession session, Attachment attachment, Map<String, String> audit, HandshakeInfo handshake) {
        MultiValueMap<String, String> query = query(handshake.getUri());
        int cols = size(query, "cols", DEFAULT_COLS);
        int rows = size(query, "rows", DEFAULT_ROWS);
        return Mono.fromCallable(() -> terminals.connect(attachment, cols, rows))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(Terminals.Lost.class, lost -> end(attachment, TerminalEnd.LOST, audit)
                        .then(Mono.error(new ApiException(ErrorCode.NOT_FOUND, "lost: " + lost.getMessage()))))
                .flatMap(connection -> stream(session, connection))
                .doFinally(signal -> commands.send(new DetachTerminal(attachment.terminalId(), attachment.attachment(),
                                clock.instant().plus(settings.idleTimeout())), audit, ErrorCode.NOT_FOUND)
                        .subscribe(done -> { }, failure -> log.atDebug().addKeyValue("terminal_id", attachment.terminalId().toString())
                                .log("detach not recorded: " + failure.getMessage())));
    }

    private Mono<Void> stream(WebSocketSession session, Terminals.Connection connection) {
        Sinks.Empty<Void> stop = Sinks.empty();
        Flux<WebSocketMessage> frames = Flux.merge(
                        connection.output().map(bytes -> session.binaryMessage(factory -> factory.wrap(bytes))).doOnComplete(stop::tryEmitEmpty),
                        Flux.interval(PING).map(tick -> session.pingMessage(factory -> factory.wrap(new byte[0]))))
                .takeUntilOther(stop.asMono());
        Mono<Void> sending = session.send(frames).then(Mono.defer(() -> {
            Terminals.Closing closing = connection.closing();
            return closing == null ? Mono.empty() : close(session, closing.code(), closing.reason());
        }));
        Mono<Void> receiving = session.receive()
                .map(Input::of)
                .concatMap(input -> Mono.fromRunnable(() -> input.apply(connection)).subscribeOn(Schedulers.boundedElastic()))
                .then()
                .doFinally(signal -> stop.tryEmitEmpty());
        return Mono.when(sending, receiving).doFinally(signal -> connection.close());
    }

    private Mono<Void> end(Attachment attachment, TerminalEnd reason, Map<String, String> audit) {
        return commands.send(new EndTerminal(attachment.terminalId(), null, reason, null), audit, ErrorCode.NOT_FOUND)
                .onErrorResume(ApiException.class, alreadyEnded -> Mono.empty())
                .then();
    }

    private static String ticket(HandshakeInfo handshake) {
        List<String> fromQuery = query(handshake.getUri()).get("ticket");
        if (fromQuery != null && !fromQuery.isEmpty()) {
            return fromQuery.getFirst();
        }
        return offered(handshake.getHeaders())
                .filter(protocol -> protocol.startsWith(TICKET_PROTOCOL))
                .map(protocol -> protocol.substring(TICKET_PROTOCOL.length()))
                .findFirst()
                .orElse(null);
    }

    /** The subprotocols the client offers, in its order. */
    private static Stream<String> offered(HttpHeaders headers) {
        return headers.getOrEmpty("Sec-WebSocket-Protocol").stream()
                .flatMap(header -> Stream.of(header.split(",")))
                .map(String::trim)
                .filter(protocol -> !protocol.isEmpty());
    }

    private static int size(MultiValueMap<String, String> query, String name, int otherwise) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(values.getFirst());
            return value >= 1 && value <= MAX_SIZE ? value : otherwise;
        } catch (NumberFormatException notANumber) {
            return otherwise;
        }
    }

    private static MultiValueMap<String, String> query(URI uri) {
        MultiValueMap<String, String> decoded = new LinkedMultiValueMap<>();
        UriComponentsBuilder.fromUri(uri).build().getQueryParams().forEach((name, values) -> values.forEach(value ->
                decoded.add(name, value == null ? "" : URLDecoder.decode(value, StandardCharsets.UTF_8))));
        return decoded;
    }

    private static Mono<Void> close(WebSocketSession session, int code, String reason) {
        return session.close(new CloseStatus(code, abbreviated(reason)));
    }

    /** A close reason fits 123 bytes of UTF-8. */
    private static String abbreviated(String reason) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= 123) {
            return reason;
        }
        String cut = new String(bytes, 0, 120, StandardCharsets.UTF_8);
        return cut.substring(0, cut.length() - 1) + "...";
    }

    /** One frame from the client, copied out of its buffer: a resize or the terminal's input. */
    private record Input(byte[] bytes, int cols, int rows) {

        static Input of(WebSocketMessage message) {
            byte[] bytes = new byte[message.getPayload().readableByteCount()];
            message.getPayload().read(bytes);
            if (message.getType() == WebSocketMessage.Type.TEXT && bytes.length > 0 && bytes[0] == '{') {
                try {
                    JsonNode control = JSON.readTree(bytes);
                    if (control.isObject() && "resize".equals(control.path("type").asString(""))) {
                        int cols = control.path("cols").asInt(0);
                        int rows = control.path("rows").asInt(0);
                        if (cols >= 1 && cols <= MAX_SIZE && rows >= 1 && rows <= MAX_SIZE) {
                            return new Input(null, cols, rows);
                        }
                    }
                } catch (RuntimeException notControl) {
                    // typed text that happens to begin with a brace
                }
            }
            return new Input(bytes, 0, 0);
        }

        void apply(Terminals.Connection connection) {
            if (bytes == null) {
                connection.resize(cols, rows);
            } else if (bytes.length > 0) {
                connection.write(bytes);
            }
        }
    }
}
