package org.agentplatform.api.terminal;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.terminal.TerminalProjection;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Terminal sessions through real HTTP and a real WebSocket client (the JDK's): a shell that computes, single-use and
 * expiring tickets verifiable with the JWKS, the refusals, resume with scrollback, the ends (instance stopped, closed,
 * shell exit), an environment without the service's settings, and the audit trail without terminal bytes.
 */
class TerminalHttpTest extends ApiTest {

    @Autowired
    private EventProcessingConfiguration processing;
    private PlatformClient owner;
    private String instance;

    @BeforeEach
    void aFreshOwnerWithALinuxInstance() {
        owner = stranger();
        instance = owner.runningInstance("linux");
    }

    @Test
    void aTicketOpensAShellOnceAndIsAnRs256JwtOfTheJwks() throws Exception {
        JsonNode created = open(Map.of());
        assertThat(created.get("resumed").asBoolean()).isFalse();
        assertThat(created.get("instance_id").asString()).isEqualTo(instance);
        String terminal = created.get("terminal_id").asString();
        String ticket = created.get("ticket").asString();
        assertThat(created.get("websocket_url").asString())
                .isEqualTo("ws://localhost:" + port + "/api/v1/instances/" + instance + "/terminal-sessions/" + terminal + "/attach");

        SignedJWT jwt = SignedJWT.parse(ticket);
        RSAKey key = JWKSet.parse(new String(http.get().uri("/.well-known/jwks.json").exchange().expectStatus().isOk()
                .expectBody().returnResult().getResponseBody(), StandardCharsets.UTF_8)).getKeyByKeyId(jwt.getHeader().getKeyID()).toRSAKey();
        assertThat(jwt.verify(new RSASSAVerifier(key))).isTrue();
        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("RS256");
        assertThat(jwt.getJWTClaimsSet().getAudience()).containsExactly("terminal");
        assertThat(jwt.getJWTClaimsSet().getStringClaim("terminal_id")).isEqualTo(terminal);
        assertThat(jwt.getJWTClaimsSet().getStringClaim("instance_id")).isEqualTo(instance);
        assertThat(jwt.getJWTClaimsSet().getStringClaim("owner_id")).isNotBlank();
        assertThat(jwt.getJWTClaimsSet().getJWTID()).isNotBlank();
        Instant expires = jwt.getJWTClaimsSet().getExpirationTime().toInstant();
        assertThat(Duration.between(Instant.now(), expires)).isBetween(Duration.ofSeconds(30), Duration.ofSeconds(61));
        assertThat(Instant.parse(created.get("expires_at").asString())).isEqualTo(expires);
        assertError(http.get().uri("/api/v1/instances").header("Authorization", "Bearer " + ticket).exchange(), 401, "invalid_token", "");

        Socket shell = Socket.attach(created.get("websocket_url").asString() + "?ticket=" + ticket);
        shell.type("echo $((6*7))\n");
        shell.awaitOutput("42");
        shell.type("pwd; env | sort; echo END-$((1+1))\n");
        String seen = shell.awaitOutput("END-2");
        assertThat(seen).contains("TERMINAL_ID=" + terminal).contains("INSTANCE_ID=" + instance)
                .contains("/instances/" + instance + "/workspace");
        assertThat(System.getenv("AGENT_PLATFORM_TERMINALS_SCROLLBACK")).as("the service's own environment has a setting").isNotNull();
        assertThat(seen).doesNotContain("AGENT_PLATFORM_");

        Socket again = Socket.attach(created.get("websocket_url").asString() + "?ticket=" + ticket);
        assertThat(again.closed()).satisfies(closed -> {
            assertThat(closed.code()).isEqualTo(4409);
            assertThat(closed.reason()).startsWith("ticket_used");
        });
        shell.type("echo still-$((5+5))\n");
        shell.awaitOutput("still-10");
        JsonNode view = await(() -> view(terminal), found -> found.get("attachments").asInt() >= 1, "the attachment in the view");
        assertThat(view.get("status").asString()).isEqualTo("open");
        assertThat(view.get("attachments").asInt()).isEqualTo(1);
        shell.abort();
    }

    @Test
    void theTicketAlsoTravelsAsASubprotocol() {
        JsonNode created = open(Map.of());
        Socket shell = Socket.attach(created.get("websocket_url").asString(), "terminal.v1", "ticket." + created.get("ticket").asString());
        assertThat(shell.subprotocol()).isEqualTo("terminal.v1");
        shell.type("echo sub-$((20+1))\n");
        shell.awaitOutput("sub-21");
        shell.abort();

        // the ticket as the only subprotocol (as browsers and ws send it): the 101 names it, or the client fails the handshake
        JsonNode alone = open(Map.of());
        String ticketProtocol = "ticket." + alone.get("ticket").asString();
        Socket only = Socket.attach(alone.get("websocket_url").asString(), ticketProtocol);
        assertThat(only.subprotocol()).isEqualTo(ticketProtocol);
        only.type("echo only-$((40+2))\n");
        only.awaitOutput("only-42");
        only.abort();
    }

    @Test
    void aHandshakeOfferingNoProtocolOfOursLeavesTheTicketUnused() {
        JsonNode created = open(Map.of());
        String url = created.get("websocket_url").asString() + "?ticket=" + created.get("ticket").asString();
        Socket refused = Socket.attach(url, "chat");
        assertThat(refused.closed().code()).isEqualTo(4400);
        assertThat(refused.closed().reason()).startsWith("protocol_refused");
        Socket shell = Socket.attach(url);
        shell.type("echo still-$((1+1))\n");
        shell.awaitOutput("still-2");
        shell.abort();
    }

    @Test
    void anExpiredForeignOrMissingTicketIsRefusedWithAReason() {
        JsonNode created = open(Map.of());
        String url = created.get("websocket_url").asString();
        clock.advance(Duration.ofMinutes(2));
        Socket expired = Socket.attach(url + "?ticket=" + created.get("ticket").asString());
        assertThat(expired.closed().code()).isEqualTo(4401);
        assertThat(expired.closed().reason()).startsWith("ticket_expired");
        clock.reset();

        JsonNode other = open(Map.of());
        Socket foreign = Socket.attach(url + "?ticket=" + other.get("ticket").asString());
        assertThat(foreign.closed().code()).isEqualTo(4403);
        Socket missing = Socket.attach(url);
        assertThat(missing.closed().code()).isEqualTo(4400);
        Socket forged = Socket.attach(url + "?ticket=" + other.get("ticket").asString().replaceFirst("\\.[^.]+$", ".AAAA"));
        assertThat(forged.closed().code()).isEqualTo(4401);
        assertThat(forged.closed().reason()).startsWith("ticket_invalid");
    }

    @Test
    void aDroppedConnectionResumesWithTheTerminalsRecentOutput() {
        JsonNode created = open(Map.of());
        String terminal = created.get("terminal_id").asString();
        Socket first = attach(created);
        first.type("echo first-$((2+3))\n");
        first.awaitOutput("first-5");
        first.abort();
        await(() -> view(terminal), found -> found.get("attachments").asInt() == 1 && !found.get("attached").asBoolean(), "the detach");

        JsonNode resumed = open(Map.of("resumeTerminalId", terminal));
        assertThat(resumed.get("terminal_id").asString()).isEqualTo(terminal);
        assertThat(resumed.get("resumed").asBoolean()).isTrue();
        Socket second = attach(resumed);
        second.awaitOutput("first-5");
        second.type("echo second-$((3+4))\n");
        second.awaitOutput("second-7");
        // the view follows the events: wait for the second attachment's
        JsonNode view = await(() -> view(terminal), found -> found.get("attachments").asInt() >= 2, "the second attachment in the view");
        assertThat(view.get("attachments").asInt()).isEqualTo(2);
        assertThat(view.get("attached").asBoolean()).isTrue();
        second.abort();
    }

    @Test
    void stoppingTheInstanceEndsItsTerminals() {
        JsonNode created = open(Map.of());
        String terminal = created.get("terminal_id").asString();
        Socket shell = attach(created);
        shell.type("echo up-$((1+2))\n");
        shell.awaitOutput("up-3");
        body(owner.post("/api/v1/instances/{i}/stop", instance).exchange(), 200);
        assertThat(shell.closed().code()).isEqualTo(1001);
        assertThat(shell.closed().reason()).startsWith("instance_stopped");
        JsonNode view = await(() -> view(terminal), found -> found.get("status").asString().equals("ended"), "the terminal's end");
        assertThat(view.get("end_reason").asString()).isEqualTo("instance_stopped");
        assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(Map.of("resumeTerminalId", terminal))
                .exchange(), 409, "conflict", "");
        assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(Map.of()).exchange(), 409, "conflict", "");
    }

    @Test
    void stoppingTheInstanceEndsTerminalsTheViewHasNotSeenYet() {
        StreamingEventProcessor view = processing.eventProcessor(TerminalProjection.GROUP, StreamingEventProcessor.class).orElseThrow();
        view.shutdownAsync().join();
        JsonNode created;
        Socket shell;
        try {
            created = open(Map.of());
            shell = attach(created);
            shell.type("echo behind-$((2+2))\n");
            shell.awaitOutput("behind-4");
            body(owner.post("/api/v1/instances/{i}/stop", instance).exchange(), 200);
            assertThat(shell.closed().code()).isEqualTo(1001);
            assertThat(shell.closed().reason()).startsWith("instance_stopped");
        } finally {
            view.start();
        }
        String terminal = created.get("terminal_id").asString();
        JsonNode ended = await(() -> view(terminal), found -> found.get("status").asString().equals("ended"), "the terminal's end");
        assertThat(ended.get("end_reason").asString()).isEqualTo("instance_stopped");
    }

    @Test
    void closingOrExitingEndsTheTerminalWithItsReason() {
        JsonNode closed = open(Map.of());
        Socket closing = attach(closed);
        closing.type("echo ready-$((4+4))\n");
        closing.awaitOutput("ready-8");
        JsonNode unused = open(Map.of("resumeTerminalId", closed.get("terminal_id").asString()));
        JsonNode ended = body(owner.delete("/api/v1/instances/{i}/terminal-sessions/{t}", instance, closed.get("terminal_id").asString())
                .exchange(), 200).get("data");
        assertThat(ended.get("status").asString()).isEqualTo("ended");
        assertThat(ended.get("end_reason").asString()).isEqualTo("closed");
        assertThat(closing.closed().code()).isEqualTo(1000);
        assertThat(closing.closed().reason()).startsWith("closed");
        Socket late = attach(unused);
        assertThat(late.closed().code()).isEqualTo(4404);
        assertThat(late.closed().reason()).startsWith("terminal_ended");

        JsonNode exiting = open(Map.of());
        String terminal = exiting.get("terminal_id").asString();
        Socket shell = attach(exiting);
        shell.type("exit 3\n");
        assertThat(shell.closed().code()).isEqualTo(1000);
        assertThat(shell.closed().reason()).isEqualTo("shell_exited: exit status 3");
        JsonNode view = await(() -> view(terminal), found -> found.get("status").asString().equals("ended"), "the terminal's end");
        assertThat(view.get("end_reason").asString()).isEqualTo("shell_exited");
        assertThat(view.get("exit_status").asInt()).isEqualTo(3);
        JsonNode listed = body(owner.get("/api/v1/instances/{i}/terminal-sessions", instance).exchange(), 200).at("/data/terminals");
        assertThat(listed).hasSize(2);
    }

    @Test
    void badOrForeignInputIsRefusedNamingIt() {
        PlatformClient other = stranger();
        assertError(other.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(Map.of()).exchange(), 404, "not_found", "");
        JsonNode mine = open(Map.of());
        assertError(other.post("/api/v1/instances/{i}/terminal-sessions", other.runningInstance("linux"))
                .bodyValue(Map.of("resumeTerminalId", mine.get("terminal_id").asString())).exchange(), 404, "not_found", "");
        assertError(other.get("/api/v1/instances/{i}/terminal-sessions/{t}", instance, mine.get("terminal_id").asString()).exchange(), 404,
                "not_found", "");
        for (String field : List.of("platformAgentId", "conversationId", "resumeTerminalId")) {
            assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(Map.of(field, "not-a-uuid")).exchange(),
                    400, "invalid_param", field);
        }
        assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance)
                .bodyValue(Map.of("platformAgentId", java.util.UUID.randomUUID().toString())).exchange(), 404, "agent_not_found", "");
        assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance)
                .bodyValue(Map.of("conversationId", java.util.UUID.randomUUID().toString())).exchange(), 404, "agent_not_found", "");
        String theirAgent = other.createAgent(other.runningInstance("linux"), "theirs");
        assertError(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(Map.of("platformAgentId", theirAgent)).exchange(),
                404, "agent_not_found", "");
        String agent = owner.createAgent(instance, "mine");
        String conversation = owner.conversation(agent);
        JsonNode withBoth = open(Map.of("platformAgentId", agent, "conversationId", conversation));
        JsonNode view = view(withBoth.get("terminal_id").asString());
        assertThat(view.get("agent_id").asString()).isEqualTo(agent);
        assertThat(view.get("conversation_id").asString()).isEqualTo(conversation);
    }

    @Test
    void theAuditTrailHasTheTerminalsLifeButNotItsBytes() {
        JsonNode created = body(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).header("X-Request-Id", "term-open-1")
                .bodyValue(Map.of()).exchange(), 200).get("data");
        String terminal = created.get("terminal_id").asString();
        Socket shell = attach(created);
        shell.type("echo very-secret-$((9*9))\n");
        shell.awaitOutput("very-secret-81");
        shell.abort();
        // the history is the order the platform saw things in: the detach once the server has noticed the closed socket
        await(() -> view(terminal), found -> !found.get("attached").asBoolean(), "the detach");
        JsonNode resumed = open(Map.of("resumeTerminalId", terminal));
        Socket again = attach(resumed);
        again.awaitOutput("very-secret-81");
        body(owner.delete("/api/v1/instances/{i}/terminal-sessions/{t}", instance, terminal).exchange(), 200);

        JsonNode events = await(() -> body(owner.get("/api/v1/audit/events?resource_type=terminal&resource_id={t}", terminal).exchange(), 200)
                .get("data").get("events"), found -> found.size() >= 6, "the terminal's history");
        List<String> types = new ArrayList<>();
        events.forEach(event -> types.add(event.get("type").asString()));
        assertThat(types).containsExactly("TerminalOpened", "TerminalAttached", "TerminalDetached", "TerminalTicketGranted",
                "TerminalAttached", "TerminalEnded");
        assertThat(events.get(0).get("request_id").asString()).isEqualTo("term-open-1");
        assertThat(events.get(0).get("actor").asString()).startsWith("jwt:");
        assertThat(events.get(1).get("actor").asString()).isEqualTo(events.get(0).get("actor").asString());
        List<String> payloads = jdbc().queryForList("SELECT convert_from(payload, 'UTF8') FROM domain_event_entry"
                + " WHERE aggregate_identifier = ?", String.class, terminal);
        assertThat(payloads).hasSize(6);
        String stored = String.join("\n", payloads);
        assertThat(stored).contains(terminal).doesNotContain("very-secret").doesNotContain("9*9")
                .doesNotContain(created.get("ticket").asString()).doesNotContain(resumed.get("ticket").asString());
    }

    private JsonNode open(Map<String, ?> request) {
        return body(owner.post("/api/v1/instances/{i}/terminal-sessions", instance).bodyValue(request).exchange(), 200).get("data");
    }

    /** Attaches with the ticket of a create's answer, as a query parameter. */
    private static Socket attach(JsonNode created) {
        return Socket.attach(created.get("websocket_url").asString() + "?ticket=" + created.get("ticket").asString());
    }

    private JsonNode view(String terminal) {
        return body(owner.get("/api/v1/instances/{i}/terminal-sessions/{t}", instance, terminal).exchange(), 200).get("data");
    }

    record Closed(int code, String reason) {
    }

    /** A WebSocket client that keeps what the terminal wrote and how the connection closed. */
    static final class Socket implements WebSocket.Listener {

        private static final HttpClient CLIENT = HttpClient.newHttpClient();
        private final StringBuilder output = new StringBuilder();
        private final CompletableFuture<Closed> closed = new CompletableFuture<>();
        private WebSocket socket;

        static Socket attach(String url, String... protocols) {
            Socket listener = new Socket();
            WebSocket.Builder builder = CLIENT.newWebSocketBuilder();
            if (protocols.length > 0) {
                builder.subprotocols(protocols[0], java.util.Arrays.copyOfRange(protocols, 1, protocols.length));
            }
            listener.socket = builder.buildAsync(URI.create(url), listener).orTimeout(20, TimeUnit.SECONDS).join();
            return listener;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            synchronized (output) {
                output.append(StandardCharsets.UTF_8.decode(data));
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(new Closed(statusCode, reason));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }

        void type(String text) {
            socket.sendText(text, true).join();
        }

        String output() {
            synchronized (output) {
                return output.toString();
            }
        }

        String awaitOutput(String expected) {
            return await(this::output, seen -> seen.contains(expected), "'" + expected + "' on the terminal");
        }

        Closed closed() {
            return closed.orTimeout(30, TimeUnit.SECONDS).join();
        }

        String subprotocol() {
            return socket.getSubprotocol();
        }

        void abort() {
            socket.abort();
        }
    }
}
