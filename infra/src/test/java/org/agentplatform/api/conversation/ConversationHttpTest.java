package org.agentplatform.api.conversation;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.agentplatform.infra.support.PlatformClient.data;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.FakeOpenAi;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Conversations through the running service, as a new user tries them: open one, send messages (one while the
 * agent still answers the one before), follow one SSE stream across the turns, drop it and resume, read the log
 * with and without deltas, cancel a hanging turn, close; and the contract's errors.
 */
class ConversationHttpTest extends ApiTest {

    @Autowired
    private LocalRuntime runtime;
    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "talker");
    }

    @Test
    void aConversationAnswersEachMessageInOrderOnOneStream() {
        JsonNode opened = body(owner.post("/api/v1/agents/{a}/conversations", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("title", "Trip planning", "context_id", "ctx-trip")).exchange(), 201).get("data");
        String conversation = opened.get("conversation_id").asString();
        assertThat(opened.get("agent_id").asString()).isEqualTo(agent);
        assertThat(opened.get("context_id").asString()).isEqualTo("ctx-trip");
        assertThat(opened.get("status").asString()).isEqualTo("open");
        assertThat(opened.get("title").asString()).isEqualTo("Trip planning");
        assertThat(opened.get("latest_offset").asLong()).isPositive();
        assertThat(opened.get("created_at").asString()).isNotBlank();

        JsonNode first = owner.say(agent, conversation, "first message\n/echo deltas=3");
        assertThat(first.propertyNames()).containsExactlyInAnyOrder("message_id", "conversation_id", "cursor");
        // an offset, a number like every offset and cursor of the API (next_since, latest_offset, next_cursor)
        assertThat(first.get("cursor").isIntegralNumber()).isTrue();
        owner.say(agent, conversation, "second message\n/echo deltas=4 take_ms=2000");
        owner.awaitTurn(agent, conversation, 2, "running");
        // the third while the agent still streams the second: it waits for its turn
        owner.say(agent, conversation, "third\n/echo history");

        List<ServerSentEvent<String>> stream = owner.conversationEvents(agent, conversation, null, finalStatusOfTurn(3));
        assertThat(replies(stream)).containsExactly("echo: first message", "echo: second message",
                "echo: third (2 earlier turns: \"first message\", \"second message\")");
        assertTurnsInOrder(stream, 3);
        assertThat(stream.getFirst().event()).isEqualTo("conversation_status");
        StringBuilder second = new StringBuilder();
        stream.stream().filter(event -> "agent_reply_delta".equals(event.event()) && data(event).get("turn").asInt() == 2)
                .forEach(event -> second.append(data(event).get("text").asString()));
        assertThat(second).hasToString("echo: second message");

        // dropped after a few frames and resumed: nothing lost, nothing twice
        List<ServerSentEvent<String>> part = stream.subList(0, 6);
        List<ServerSentEvent<String>> rest = owner.conversationEvents(agent, conversation, part.getLast().id(), finalStatusOfTurn(3));
        List<String> resumed = new ArrayList<>(ids(part));
        resumed.addAll(ids(rest));
        assertThat(resumed).isEqualTo(ids(stream)).doesNotHaveDuplicates();

        // the cursor of a message: reading from it shows the message and what came after
        JsonNode fourth = owner.say(agent, conversation, "fourth");
        owner.awaitTurn(agent, conversation, 4, "completed");
        JsonNode after = body(owner.get("/api/v1/agents/{a}/conversations/{c}/messages?since={s}", agent, conversation,
                fourth.get("cursor").asString()).exchange(), 200).at("/data/messages");
        assertThat(after.get(0).get("text").asString()).isEqualTo("fourth");
        assertThat(after.get(0).get("data").get("message_id").asString()).isEqualTo(fourth.get("message_id").asString());

        JsonNode withDeltas = owner.conversationLog(agent, conversation, true);
        JsonNode withoutDeltas = owner.conversationLog(agent, conversation, false);
        assertThat(kinds(withoutDeltas)).doesNotContain("agent_reply_delta").contains("user_message", "agent_message", "turn_status");
        assertThat(kinds(withDeltas)).contains("agent_reply_delta");
        long last = withDeltas.get("messages").get(withDeltas.get("messages").size() - 1).get("offset").asLong();
        assertThat(withDeltas.get("latest_offset").asLong()).isEqualTo(last);
        assertThat(withoutDeltas.get("latest_offset").asLong()).isEqualTo(last);
        assertThat(owner.conversationView(agent, conversation).get("latest_offset").asLong()).isEqualTo(last);
    }

    /**
     * Three messages posted at the same moment: their events reach the projection in one batch, where the first turn's
     * start (which writes log rows) and the next message's post (which writes none) must apply in their order. Read after
     * the log shows turn 1 running, the view must show it too; a lost update left it at turn 0 until the next turn.
     */
    @Test
    void threeMessagesAtOnceNeverLeaveTheViewBehindItsLog() {
        // the first owner, through a key whose quota holds the whole run
        PlatformClient owner = new PlatformClient(http, createKey(Map.of("name", "many conversations", "rate_limit_per_minute", 100_000)));
        ExecutorService clients = Executors.newFixedThreadPool(24);
        try {
            List<String> wrong = Flux.range(0, 200).flatMap(attempt -> Mono.fromCallable(() -> {
                String conversation = owner.conversation(agent);
                List<Callable<JsonNode>> posts = List.of(() -> owner.say(agent, conversation, "A\n/echo take_ms=1000"),
                        () -> owner.say(agent, conversation, "B"), () -> owner.say(agent, conversation, "C"));
                for (Future<JsonNode> posted : clients.invokeAll(posts)) {
                    posted.get();
                }
                PlatformClient.await(() -> owner.conversationLog(agent, conversation, false).get("messages"),
                        rows -> hasStatus(rows, 1, "running"), "turn 1 running in the log of " + conversation);
                JsonNode view = owner.conversationView(agent, conversation);
                return view.get("turn").asInt() >= 1 && !view.get("turn_status").isNull() ? "" : conversation + ": " + view;
            }).subscribeOn(Schedulers.fromExecutor(clients)), 8).filter(verdict -> !verdict.isEmpty()).collectList().block();
            assertThat(wrong).as("views behind their logs").isEmpty();
        } finally {
            clients.shutdownNow();
        }
    }

    private static boolean hasStatus(JsonNode rows, int turn, String status) {
        for (JsonNode row : rows) {
            if ("turn_status".equals(row.get("kind").asString()) && row.get("turn").asInt() == turn
                    && status.equals(row.get("status").asString())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aHangingTurnIsCanceledTheNextMessageGoesOnAndClosingEndsTheStream() {
        String conversation = owner.conversation(agent);
        owner.say(agent, conversation, "wait forever\n/echo then=hang");
        owner.awaitTurn(agent, conversation, 1, "running");
        owner.say(agent, conversation, "after the hang");
        JsonNode canceled = body(owner.post("/api/v1/agents/{a}/conversations/{c}/cancel", agent, conversation)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("reason", "took too long")).exchange(), 200).get("data");
        assertThat(canceled.get("turn").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(owner.awaitTurn(agent, conversation, 2, "completed").get("text").asString()).isEqualTo("echo: after the hang");
        assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/cancel", agent, conversation).exchange(), 409, "conflict", "");

        JsonNode closed = body(owner.post("/api/v1/agents/{a}/conversations/{c}/close", agent, conversation).exchange(), 200).get("data");
        assertThat(closed.get("status").asString()).isEqualTo("closed");
        body(owner.post("/api/v1/agents/{a}/conversations/{c}/close", agent, conversation).exchange(), 200);
        assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "anyone?")).exchange(), 409, "conflict", "");

        List<ServerSentEvent<String>> stream = owner.conversationEvents(agent, conversation, null, event -> "done".equals(event.event()));
        List<String> statuses = stream.stream().filter(event -> event.event().endsWith("_status"))
                .map(event -> event.event() + ":" + data(event).get("turn").asInt() + ":" + data(event).get("status").asString()).toList();
        assertThat(statuses).containsExactly("conversation_status:0:open", "turn_status:1:running", "turn_status:1:canceled",
                "turn_status:2:running", "turn_status:2:completed", "conversation_status:2:closed");
        assertThat(data(stream.get(stream.size() - 2)).get("final").asBoolean()).isTrue();
        JsonNode done = data(stream.getLast());
        assertThat(done.get("text").asString()).isEqualTo("echo: after the hang");
        assertThat(done.get("is_error").asBoolean()).isFalse();
        // resumed from the closed row: done (it has an id of its own); from done: nothing follows, ever (204)
        assertThat(owner.conversationEvents(agent, conversation, stream.get(stream.size() - 2).id(), event -> "done".equals(event.event())))
                .extracting(ServerSentEvent::event, ServerSentEvent::id).containsExactly(org.assertj.core.groups.Tuple.tuple("done", stream.getLast().id()));
        owner.get("/api/v1/agents/{a}/conversations/{c}/events", agent, conversation).header("Last-Event-ID", stream.getLast().id())
                .accept(MediaType.TEXT_EVENT_STREAM).exchange().expectStatus().isNoContent();
        // a stream opened from an earlier row after the close replays the rest and ends the same way
        assertThat(owner.conversationEvents(agent, conversation, stream.get(stream.size() - 3).id(), event -> "done".equals(event.event())))
                .extracting(ServerSentEvent::event).containsExactly("conversation_status", "done");
    }

    @Test
    void aLateStopOfAnEarlierTurnLeavesTheNextTurnRunning() {
        String conversation = owner.conversation(agent);
        secondTurnStreaming(conversation);
        // the dispatcher hands a canceled turn's stop to the runtime off its own thread: it can arrive after the next turn started
        runtime.stopTurn(UUID.fromString(conversation), 1);
        assertThat(owner.awaitTurn(agent, conversation, 2, "completed").get("text").asString()).isEqualTo("echo: second");
    }

    @Test
    void anEarlierTurnStartedLateWhileTheNextRunsIsStoppedNotRun() {
        String conversation = owner.conversation(agent);
        UUID channel = UUID.fromString(conversation);
        secondTurnStreaming(conversation);
        // turn 1 reaches the runtime only now, after turn 2 (its start swapped with what followed it on the dispatcher's executor)
        AgentTurn first = jdbc().queryForObject("DELETE FROM local_turn WHERE channel_id = ? AND turn = 1 RETURNING owner_id, agent_id,"
                + " instance_id, context_id, runtime_epoch, log_window", (row, index) -> new AgentTurn(AgentTurn.Kind.CONVERSATION, channel,
                new OwnerId(row.getObject("owner_id", UUID.class)), new AgentId(row.getObject("agent_id", UUID.class)),
                new InstanceId(row.getObject("instance_id", UUID.class)), row.getString("context_id"), 1, row.getLong("runtime_epoch"),
                row.getLong("log_window"), TaskMessage.user("first", List.of()), true), channel);
        runtime.startTurn(first);
        await(() -> runtimeState(channel, 1), "stopped"::equals, "the late turn 1 stopped once claimed");
        assertThat(owner.awaitTurn(agent, conversation, 2, "completed").get("text").asString()).isEqualTo("echo: second");

        // the same turn, claimed long ago by a node that no longer holds it (this one) while the conversation went on, is not
        // run again by the takeover sweep either; nor when its node went silent
        jdbc().update("UPDATE local_turn SET state = 'running', claimed_at = now() - interval '1 hour' WHERE channel_id = ? AND turn = 1",
                channel);
        runtime.recoverTurns();
        assertThat(runtimeState(channel, 1)).isEqualTo("stopped");
        jdbc().update("UPDATE local_turn SET state = 'running', claimed_by = 'a-node-gone-silent', claimed_at = now() - interval '1 hour'"
                + " WHERE channel_id = ? AND turn = 1", channel);
        runtime.recoverTurns();
        assertThat(runtimeState(channel, 1)).isEqualTo("stopped");
    }

    /**
     * Turn 1 answered, turn 2 asked and streaming its first delta; turn 2 takes long enough that it still runs while a
     * test reaches the runtime about turn 1, on a slow box too.
     */
    private void secondTurnStreaming(String conversation) {
        owner.say(agent, conversation, "first");
        owner.awaitTurn(agent, conversation, 1, "completed");
        owner.say(agent, conversation, "second\n/echo deltas=4 take_ms=4000");
        owner.conversationEvents(agent, conversation, null,
                event -> "agent_reply_delta".equals(event.event()) && data(event).get("turn").asInt() == 2);
    }

    /** The local runtime's record of the turn: running, finished, reported or stopped. */
    private String runtimeState(UUID channel, int turn) {
        return jdbc().queryForObject("SELECT state FROM local_turn WHERE channel_id = ? AND turn = ?", String.class, channel, turn);
    }

    @Test
    void closingCancelsTheRunningTurnAndItsLateAnswerIsNotShown() {
        String conversation = owner.conversation(agent);
        owner.say(agent, conversation, "slow\n/echo deltas=20 take_ms=3000");
        owner.awaitTurn(agent, conversation, 1, "running");
        body(owner.post("/api/v1/agents/{a}/conversations/{c}/close", agent, conversation).exchange(), 200);
        List<ServerSentEvent<String>> stream = owner.conversationEvents(agent, conversation, null, event -> "done".equals(event.event()));
        assertThat(stream).extracting(ServerSentEvent::event).doesNotContain("agent_message").endsWith("conversation_status", "done");
        int index = stream.stream().map(ServerSentEvent::event).toList().indexOf("conversation_status");
        assertThat(stream.subList(1, stream.size() - 2)).allSatisfy(event -> assertThat(event.event()).isNotEqualTo("conversation_status"));
        assertThat(index).isZero();
        assertThat(owner.conversationView(agent, conversation).get("turn_status").asString()).isEqualTo("canceled");
    }

    @Test
    void anOpenAiCompatibleModelGetsTheEarlierTurnsAsTheChat() {
        String create = owner.operationOf(instance, "agent/create", Map.of("name", "gpt", "model", FakeOpenAi.MODEL));
        String gpt = owner.awaitOperation(instance, create, "succeeded").at("/projection/platformAgentId").asString();
        PlatformClient.await(() -> owner.get("/api/v1/agents/{a}", gpt).exchange().returnResult(String.class).getStatus().value(),
                status -> status == 200, "agent readable");
        String conversation = owner.conversation(gpt);
        owner.say(gpt, conversation, "where is Lyon?");
        owner.awaitTurn(gpt, conversation, 1, "completed");
        owner.say(gpt, conversation, "and how far from Paris?");
        JsonNode answered = owner.awaitTurn(gpt, conversation, 2, "completed");
        assertThat(answered.get("text").asString()).isEqualTo("fake reply to: and how far from Paris?");
        assertThat(FakeOpenAi.get().lastMessages()).endsWith("user: where is Lyon?", "assistant: fake reply to: where is Lyon?",
                "user: and how far from Paris?");
    }

    @Test
    void aRepeatedIdempotencyKeyIsAConflictNamingTheFirst() {
        String conversation = owner.conversation(agent);
        Map<String, String> message = Map.of("message", "once", "idempotency_key", "k-1");
        String first = body(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(message).exchange(), 202).at("/data/message_id").asString();
        JsonNode repeated = assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(message).exchange(), 409, "conflict", "");
        assertThat(repeated.at("/metadata/message_id").asString()).isEqualTo(first);

        Map<String, String> open = Map.of("idempotency_key", "open-1");
        String opened = body(owner.post("/api/v1/agents/{a}/conversations", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(open)
                .exchange(), 201).at("/data/conversation_id").asString();
        JsonNode again = assertError(owner.post("/api/v1/agents/{a}/conversations", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(open).exchange(), 409, "conflict", "");
        assertThat(again.at("/metadata/conversation_id").asString()).isEqualTo(opened);
    }

    @Test
    void listsAreTheCallersNewestFirstAndPaged() {
        List<String> opened = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            opened.add(owner.conversation(agent));
        }
        JsonNode page = body(owner.get("/api/v1/agents/{a}/conversations?limit=2", agent).exchange(), 200).get("data");
        assertThat(page.get("conversations").findValuesAsString("conversation_id")).containsExactly(opened.get(2), opened.get(1));
        JsonNode next = body(owner.get("/api/v1/agents/{a}/conversations?limit=2&cursor={c}", agent, page.get("next_cursor").asLong())
                .exchange(), 200).get("data");
        assertThat(next.get("conversations").findValuesAsString("conversation_id")).startsWith(opened.get(0));
        assertError(stranger().get("/api/v1/agents/{a}/conversations", agent).exchange(), 403, "forbidden", "");
    }

    @Test
    void anotherOwnersConversationIsNotFoundAndBadInputIsRefused() {
        String conversation = owner.conversation(agent);
        PlatformClient other = stranger();
        assertError(other.get("/api/v1/agents/{a}/conversations/{c}", agent, conversation).exchange(), 404, "agent_not_found", "");
        assertError(other.get("/api/v1/agents/{a}/conversations/{c}/events", agent, conversation).exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/{a}/conversations/{c}", agent, "not-a-uuid").exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/{a}/conversations/{c}/messages?since=-1", agent, conversation).exchange(), 400,
                "invalid_param", "since");
        assertError(owner.get("/api/v1/agents/{a}/conversations/{c}/messages?include_deltas=yes", agent, conversation).exchange(), 400,
                "invalid_param", "include_deltas");
        assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "")).exchange(), 400, "invalid_param", "message");
        assertError(owner.post("/api/v1/agents/{a}/conversations", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("title", "x".repeat(201))).exchange(), 400, "invalid_param", "title");
        assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "see", "attachments", List.of(Map.of("file_id", "nope")))).exchange(), 400, "invalid_param",
                "attachments[0].file_id");
    }

    @Test
    void aTurnTheAgentReportsFailedCarriesItsTextNotAnInternalCode() {
        String conversation = owner.conversation(agent);
        owner.say(agent, conversation, "parse this\n/echo then=fail");
        JsonNode view = PlatformClient.await(() -> owner.conversationView(agent, conversation), seen -> "failed".equals(seen.path("turn_status").asString()),
                "the failed turn");
        // as on a task: agent_reply_error is only ever done.code (the contract); the agent's own report has its text
        assertThat(view.at("/error/code").isNull()).as(view.toString()).isTrue();
        assertThat(view.at("/error/message").asString()).isNotBlank();
        JsonNode log = owner.conversationLog(agent, conversation, false);
        assertThat(log.toString()).doesNotContain("agent_reply_error");
        List<ServerSentEvent<String>> stream = owner.conversationEvents(agent, conversation, null,
                event -> "turn_status".equals(event.event()) && data(event).get("final").asBoolean());
        JsonNode failed = data(stream.getLast());
        assertThat(failed.get("status").asString()).isEqualTo("failed");
        assertThat(failed.get("code").isNull()).isTrue();
        assertThat(failed.get("message").asString()).isNotBlank();
    }

    @Test
    void aStoppedInstanceAnswers503() {
        String conversation = owner.conversation(agent);
        body(owner.post("/api/v1/instances/{i}/stop", instance).exchange(), 200);
        owner.awaitInstance(instance, "stopped");
        assertError(owner.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "hello?")).exchange(), 503, "agent_offline", "");
        assertError(owner.post("/api/v1/agents/{a}/conversations", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of())
                .exchange(), 503, "agent_offline", "");
        // reading and closing need no running instance
        assertThat(owner.conversationView(agent, conversation).get("status").asString()).isEqualTo("open");
        body(owner.post("/api/v1/agents/{a}/conversations/{c}/close", agent, conversation).exchange(), 200);
    }

    /** Each turn: its user message before its {@code running} status, its chunks after it, its reply, then its final status. */
    private static void assertTurnsInOrder(List<ServerSentEvent<String>> stream, int turns) {
        List<Long> ids = stream.stream().map(event -> Long.parseLong(event.id())).toList();
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        int previousEnd = -1;
        for (int turn = 1; turn <= turns; turn++) {
            int message = indexOf(stream, "user_message", turn, null);
            int running = indexOf(stream, "turn_status", turn, "running");
            int reply = indexOf(stream, "agent_message", turn, null);
            int end = indexOf(stream, "turn_status", turn, "completed");
            assertThat(message).as("turn %d", turn).isLessThan(running);
            assertThat(running).as("turn %d starts after the one before ends", turn).isGreaterThan(previousEnd);
            assertThat(reply).isBetween(running, end);
            for (int index = 0; index < stream.size(); index++) {
                ServerSentEvent<String> event = stream.get(index);
                if (event.event().startsWith("agent_") && data(event).get("turn").asInt() == turn) {
                    assertThat(index).as("a chunk of turn %d", turn).isBetween(running, end);
                }
            }
            assertThat(data(stream.get(end)).get("final").asBoolean()).isTrue();
            previousEnd = end;
        }
    }

    private static int indexOf(List<ServerSentEvent<String>> stream, String kind, int turn, String status) {
        for (int index = 0; index < stream.size(); index++) {
            ServerSentEvent<String> event = stream.get(index);
            JsonNode data = data(event);
            if (kind.equals(event.event()) && data.get("turn").asInt() == turn && (status == null || status.equals(data.get("status").asString()))) {
                return index;
            }
        }
        throw new AssertionError("no " + kind + " " + status + " of turn " + turn + " in " + stream);
    }

    private static Predicate<ServerSentEvent<String>> finalStatusOfTurn(int turn) {
        return event -> "turn_status".equals(event.event()) && data(event).get("turn").asInt() == turn && data(event).get("final").asBoolean();
    }

    private static List<String> replies(List<ServerSentEvent<String>> stream) {
        return stream.stream().filter(event -> "agent_message".equals(event.event())).map(event -> data(event).get("text").asString()).toList();
    }

    private static List<String> ids(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::id).filter(id -> id != null).toList();
    }

    private static List<String> kinds(JsonNode log) {
        List<String> kinds = new ArrayList<>();
        log.get("messages").forEach(entry -> kinds.add(entry.get("kind").asString()));
        return kinds;
    }
}
