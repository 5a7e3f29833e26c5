package org.agentplatform.api.task;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.agentplatform.infra.support.PlatformClient.data;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.command.task.TaskDispatcher;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.channel.ChannelChunks;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Tasks through the running service, as a new user tries them: create (202 at once), follow the SSE
 * stream (deltas, statuses, done), drop it and resume with Last-Event-ID, read the message log with and
 * without deltas, find tasks in the inbox, cancel, continue, time out, and the contract's errors.
 */
class TaskHttpTest extends ApiTest {

    /** The class of the fair shares' advisory locks in {@code LocalAgentTurns} ("FAIR"). */
    private static final long FAIR_SHARE_LOCKS = 0x46414952;

    @Autowired
    private ChannelChunks chunks;

    @Autowired
    private LocalRuntime runtime;

    @Autowired
    private EventProcessingConfiguration processing;

    @Autowired
    private DataSource dataSource;

    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = platform();
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "tasker");
    }

    @Test
    void aCreateAnswers202AtOnceWithTheTaskAndContextIds() {
        JsonNode created = owner.task(agent, Map.of("message", "hello", "context_id", "ctx-42")).get("data");
        assertThat(created.get("task_id").asString()).isNotBlank();
        assertThat(created.get("context_id").asString()).isEqualTo("ctx-42");
        assertThat(created.get("status").asString()).isIn("queued", "running", "completed");
        assertThat(created.get("origin").asString()).isEqualTo("tasks");
        JsonNode done = owner.awaitTask(agent, created.get("task_id").asString(), "completed");
        assertThat(done.get("text").asString()).isEqualTo("echo: hello");
        assertThat(done.get("final").asBoolean()).isTrue();
        assertThat(done.get("is_error").asBoolean()).isFalse();
        assertThat(done.get("truncated").asBoolean()).isFalse();
        assertThat(done.get("history")).extracting(entry -> entry.get("text").asString()).containsExactly("hello", "echo: hello");
    }

    @Test
    void theStreamCarriesEveryEnvelopeAndEndsWithDone() {
        String task = owner.task(agent, "stream me\n/echo deltas=4 think=1 progress=1");
        List<ServerSentEvent<String>> events = owner.taskEvents(agent, task, null, 100);
        assertThat(events).extracting(ServerSentEvent::event).containsExactly("user_message", "task_status", "task_status",
                "agent_thought_chunk", "agent_message_chunk", "agent_reply_delta", "agent_reply_delta", "agent_reply_delta",
                "agent_reply_delta", "agent_message", "task_status", "done");
        List<Long> ids = events.stream().filter(event -> event.id() != null).map(event -> Long.parseLong(event.id())).toList();
        // every frame has an id, done too (a client cut off before it resumes to get it)
        assertThat(ids).hasSize(12).isSorted().doesNotHaveDuplicates();
        JsonNode running = data(events.get(2));
        assertThat(fieldNames(running)).containsExactly("type", "task_id", "context_id", "status", "final", "timestamp");
        assertThat(running.get("status").asString()).isEqualTo("running");
        assertThat(running.get("final").asBoolean()).isFalse();
        JsonNode completed = data(events.get(10));
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(completed.get("final").asBoolean()).isTrue();
        StringBuilder reply = new StringBuilder();
        events.stream().filter(event -> "agent_reply_delta".equals(event.event())).forEach(event -> reply.append(data(event).get("text").asString()));
        assertThat(reply).hasToString("echo: stream me");
        JsonNode done = data(events.getLast());
        assertThat(done.get("type").asString()).isEqualTo("done");
        assertThat(done.get("text").asString()).isEqualTo("echo: stream me");
        assertThat(done.get("context_id").asString()).isEqualTo(running.get("context_id").asString());
        assertThat(done.get("is_error").asBoolean()).isFalse();
        assertThat(done.get("error").isNull()).isTrue();
        assertThat(done.get("code").isNull()).isTrue();
    }

    @Test
    void aTurnsChunksAreReadOnlyAfterTheStatusRowOfTheEventThatStartedIt() {
        // the projection writes the 'running' row a second late; the runtime streams the turn's chunks meanwhile
        String context = "slow-" + UUID.randomUUID();
        jdbc().execute("CREATE FUNCTION slow_running_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.status = 'running' AND EXISTS (SELECT 1 FROM task_view WHERE id = NEW.channel_id AND context_id = '" + context
                + "') THEN PERFORM pg_sleep(1); END IF; RETURN NEW; END $$");
        jdbc().execute("CREATE TRIGGER slow_running_row BEFORE INSERT ON channel_message FOR EACH ROW EXECUTE FUNCTION slow_running_row()");
        try {
            String task = owner.task(agent, Map.of("message", "late status\n/echo deltas=3", "context_id", context))
                    .at("/data/task_id").asString();
            List<ServerSentEvent<String>> events = owner.taskEvents(agent, task, null, 100);
            assertThat(events).extracting(ServerSentEvent::event).containsExactly("user_message", "task_status", "task_status",
                    "agent_reply_delta", "agent_reply_delta", "agent_reply_delta", "agent_message", "task_status", "done");
            assertThat(data(events.get(2)).get("status").asString()).isEqualTo("running");
        } finally {
            jdbc().execute("DROP TRIGGER IF EXISTS slow_running_row ON channel_message");
            jdbc().execute("DROP FUNCTION IF EXISTS slow_running_row()");
        }
    }

    @Test
    void manyShortTasksStreamedWhileTheyFinishEachEndWithTheirTerminalStatusThenDone() {
        List<String> tasks = new ArrayList<>();
        for (int index = 0; index < 40; index++) {
            tasks.add(owner.task(agent, "short " + index + "\n/echo deltas=1"));
        }
        List<List<String>> streams = Flux.fromIterable(tasks)
                .flatMap(task -> Mono.fromCallable(() -> owner.taskEvents(agent, task, null, 100)).subscribeOn(Schedulers.boundedElastic())
                        .map(events -> events.stream().map(ServerSentEvent::event).toList()), 16)
                .collectList()
                .block(Duration.ofSeconds(60));
        assertThat(streams).hasSize(40).allSatisfy(kinds -> assertThat(kinds.subList(kinds.size() - 3, kinds.size()))
                .containsExactly("agent_message", "task_status", "done"));
    }

    @Test
    void aReconnectWithTheLastIdLosesAndRepeatsNothing() {
        String task = owner.task(agent, "slowly now\n/echo deltas=6 take_ms=1400");
        List<ServerSentEvent<String>> first = owner.taskEvents(agent, task, null, 4);
        List<ServerSentEvent<String>> rest = owner.taskEvents(agent, task, first.getLast().id(), 100);
        assertThat(rest.getLast().event()).isEqualTo("done");
        List<String> resumed = new ArrayList<>(ids(first));
        resumed.addAll(ids(rest));
        assertThat(resumed).isEqualTo(ids(owner.taskEvents(agent, task, null, 100))).doesNotHaveDuplicates();
        // cut between the terminal status and done: the resume gets done (it has an id of its own), and nothing repeats
        ServerSentEvent<String> done = rest.getLast();
        assertThat(done.id()).isNotNull();
        assertThat(owner.taskEvents(agent, task, rest.get(rest.size() - 2).id(), 100)).extracting(ServerSentEvent::event, ServerSentEvent::id)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("done", done.id()));
        // from done on nothing follows, ever: 204 tells a standard client to stop reconnecting
        owner.get("/api/v1/agents/{a}/tasks/{t}/events", agent, task).header("Last-Event-ID", done.id())
                .accept(MediaType.TEXT_EVENT_STREAM).exchange().expectStatus().isNoContent().expectBody().isEmpty();
    }

    @Test
    void eachFrameIsWrittenEventThenDataThenItsId() {
        String task = owner.task(agent, "framed\n/echo deltas=2");
        owner.awaitTask(agent, task, "completed");
        String raw = new String(owner.get("/api/v1/agents/{a}/tasks/{t}/events", agent, task).accept(MediaType.TEXT_EVENT_STREAM)
                .exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody(), java.nio.charset.StandardCharsets.UTF_8);
        List<String> frames = List.of(raw.split("\n\n"));
        assertThat(frames).hasSizeGreaterThanOrEqualTo(7);
        for (String frame : frames) {
            List<String> lines = List.of(frame.split("\n"));
            if (lines.getFirst().startsWith(":")) {
                continue;
            }
            assertThat(lines.getFirst()).as(frame).startsWith("event:");
            assertThat(lines.get(1)).as(frame).startsWith("data:");
            if (!lines.getFirst().equals("event:done") && !lines.getFirst().equals("event:error")) {
                assertThat(lines.getLast()).as("the id comes last: " + frame).startsWith("id:");
            }
            assertThat(lines.subList(0, lines.size() - 1)).as(frame).noneMatch(line -> line.startsWith("id:"));
        }
    }

    @Test
    void theMessageLogOmitsDeltasUnlessAskedAndKnowsTheTrueLatestOffset() {
        String task = owner.task(agent, "log me\n/echo deltas=3");
        owner.awaitTask(agent, task, "completed");
        JsonNode plain = messages(task, "");
        JsonNode all = messages(task, "?include_deltas=true");
        assertThat(kinds(plain)).containsExactly("user_message", "task_status", "task_status", "agent_message", "task_status");
        assertThat(kinds(all)).containsExactly("user_message", "task_status", "task_status", "agent_reply_delta", "agent_reply_delta",
                "agent_reply_delta", "agent_message", "task_status");
        long latest = all.get("latest_offset").asLong();
        assertThat(plain.get("latest_offset").asLong()).isEqualTo(latest);
        assertThat(all.at("/messages/7/offset").asLong()).isEqualTo(latest);
        long second = plain.at("/messages/1/offset").asLong();
        JsonNode later = messages(task, "?since=" + second);
        assertThat(kinds(later)).containsExactly("task_status", "agent_message", "task_status");
        assertThat(later.get("latest_offset").asLong()).isEqualTo(latest);
        JsonNode page = messages(task, "?limit=2&include_deltas=true");
        assertThat(kinds(page)).hasSize(2);
        assertThat(page.get("has_more").asBoolean()).isTrue();
        assertThat(page.get("next_since").asLong()).isEqualTo(all.at("/messages/1/offset").asLong());
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}/messages?include_deltas=maybe", agent, task).exchange(), 400, "invalid_param",
                "include_deltas");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}/messages?since=-3", agent, task).exchange(), 400, "invalid_param", "since");
    }

    @Test
    void theInboxFindsTheCallersTasksAcrossAgentsAndFeedsLaterChanges() {
        String other = owner.createAgent(instance, "second");
        String one = owner.task(agent, "one");
        owner.awaitTask(agent, one, "completed");
        String two = owner.task(other, "two");
        owner.awaitTask(other, two, "completed");
        JsonNode inbox = body(owner.get("/api/v1/tasks").exchange(), 200).get("data");
        List<String> listed = ids(inbox.get("tasks"));
        assertThat(listed).contains(one, two);
        assertThat(listed.indexOf(two)).isLessThan(listed.indexOf(one));
        assertThat(ids(body(owner.get("/api/v1/tasks?agentId=" + other).exchange(), 200).at("/data/tasks"))).contains(two).doesNotContain(one);
        assertThat(body(owner.get("/api/v1/tasks?limit=1").exchange(), 200).at("/data/tasks")).hasSize(1);
        assertThat(ids(body(owner.get("/api/v1/agents/{a}/tasks", other).exchange(), 200).at("/data/tasks"))).containsExactly(two);

        long since = inbox.get("next_since").asLong();
        String three = owner.task(agent, "three");
        owner.awaitTask(agent, three, "completed");
        // the inbox's stream from the same cursor: the task's changes, each a task frame whose id is its change offset
        List<ServerSentEvent<String>> live = owner.inboxEvents("?since=" + since, null, 1);
        assertThat(live.getFirst().event()).isEqualTo("task");
        assertThat(data(live.getFirst()).get("task_id").asString()).isEqualTo(three);
        assertThat(data(live.getFirst()).get("status").asString()).isEqualTo("completed");
        assertThat(live.getFirst().id()).isEqualTo(data(live.getFirst()).get("offset").asString());
        JsonNode changed = body(owner.get("/api/v1/tasks?since=" + since).exchange(), 200).get("data");
        assertThat(ids(changed.get("tasks"))).containsExactly(three);
        assertThat(changed.get("next_since").asLong()).isGreaterThan(since);
        assertThat(body(owner.get("/api/v1/tasks?since=" + changed.get("next_since").asLong()).exchange(), 200).at("/data/tasks")).isEmpty();
        assertThat(ids(body(stranger().get("/api/v1/tasks").exchange(), 200).at("/data/tasks"))).isEmpty();
        assertError(owner.get("/api/v1/tasks?limit=lots").exchange(), 400, "invalid_param", "limit");
        assertError(owner.get("/api/v1/tasks?agentId=nope").exchange(), 400, "invalid_param", "agentId");

        String waiting = owner.task(other, "which?\n/echo then=input");
        owner.awaitTask(other, waiting, "input_required");
        assertThat(ids(body(owner.get("/api/v1/tasks?status=input_required,auth_required&agentId=" + other).exchange(), 200)
                .at("/data/tasks"))).containsExactly(waiting);
        assertThat(ids(body(owner.get("/api/v1/tasks?status=completed&agentId=" + other).exchange(), 200).at("/data/tasks")))
                .containsExactly(two);
        // paged back to the oldest with next_cursor, one at a time: every task once, newest change first, then null
        List<String> paged = new ArrayList<>();
        JsonNode page = body(owner.get("/api/v1/tasks?limit=1&agentId=" + other).exchange(), 200).get("data");
        while (true) {
            paged.addAll(ids(page.get("tasks")));
            if (page.get("next_cursor").isNull()) {
                break;
            }
            page = body(owner.get("/api/v1/tasks?limit=1&agentId=" + other + "&cursor=" + page.get("next_cursor").asLong()).exchange(), 200)
                    .get("data");
        }
        assertThat(paged).containsExactly(waiting, two);
        assertError(owner.get("/api/v1/tasks?status=done").exchange(), 400, "invalid_param", "status");
        assertError(owner.get("/api/v1/tasks?since=1&cursor=2").exchange(), 400, "invalid_param", "cursor");
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", other, waiting).exchange(), 200);
    }

    @Test
    void cancelEndsAnUnfinishedTaskAndIsAConflictOnceFinished() {
        String task = owner.task(agent, "wait forever\n/echo then=hang");
        owner.awaitTask(agent, task, "running");
        JsonNode canceled = body(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("reason", "changed my mind")).exchange(), 200).get("data");
        assertThat(canceled.get("status").asString()).isEqualTo("canceled");
        assertThat(canceled.at("/error/code").asString()).isEqualTo("conflict");
        List<ServerSentEvent<String>> tail = owner.taskEvents(agent, task, null, 100);
        assertThat(tail.subList(tail.size() - 3, tail.size())).extracting(ServerSentEvent::event)
                .containsExactly("task_status", "error", "done");
        JsonNode error = data(tail.get(tail.size() - 2));
        assertThat(error.get("type").asString()).isEqualTo("error");
        assertThat(error.get("code").asString()).isEqualTo("conflict");
        assertThat(error.get("status_code").asInt()).isEqualTo(409);
        assertThat(data(tail.getLast()).get("code").asString()).isEqualTo("conflict");
        // resumed from the terminal status both closing frames follow; from the error frame, done alone
        assertThat(owner.taskEvents(agent, task, tail.get(tail.size() - 3).id(), 100)).extracting(ServerSentEvent::event).containsExactly("error", "done");
        assertThat(owner.taskEvents(agent, task, tail.get(tail.size() - 2).id(), 100)).extracting(ServerSentEvent::event).containsExactly("done");
        JsonNode again = assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).exchange(), 409, "conflict", "");
        assertThat(again.get("message").asString()).contains("already canceled");
    }

    @Test
    void continueResumesATaskThatWaitsForInputOrAuthorization() {
        String task = owner.task(agent, "which colour?\n/echo then=input");
        assertThat(owner.awaitTask(agent, task, "input_required").get("text").asString()).isEqualTo("echo needs more input: which colour?");
        JsonNode resumed = body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "blue")).exchange(), 202).get("data");
        assertThat(resumed.get("status").asString()).as("the answer waits for a worker, then runs").isIn("queued", "running", "completed");
        JsonNode done = owner.awaitTask(agent, task, "completed");
        assertThat(done.get("text").asString()).isEqualTo("echo: blue");
        assertThat(done.get("history")).extracting(entry -> entry.get("turn").asInt()).containsExactly(1, 1, 2, 2);
        JsonNode refused = assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", "again")).exchange(), 409, "conflict", "");
        assertThat(refused.get("message").asString()).contains("input_required or auth_required");

        String auth = owner.task(agent, "sign in please\n/echo then=auth");
        owner.awaitTask(agent, auth, "auth_required");
        body(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, auth).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "authorized")).exchange(), 202);
        assertThat(owner.awaitTask(agent, auth, "completed").get("text").asString()).isEqualTo("echo: authorized");
    }

    @Test
    void aRunningTaskCannotBeContinued() {
        String task = owner.task(agent, "busy\n/echo then=hang");
        owner.awaitTask(agent, task, "running");
        assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/continue", agent, task).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "hurry")).exchange(), 409, "conflict", "");
    }

    @Test
    void aDeadlineTimesTheTaskOutAndAnOverlongOneIsRefused() {
        JsonNode created = owner.task(agent, Map.of("message", "stuck\n/echo then=hang", "deadline_ms", 1000)).get("data");
        assertThat(created.get("deadline_at").asString()).isNotBlank();
        String task = created.get("task_id").asString();
        JsonNode timedOut = owner.awaitTask(agent, task, "timeout");
        assertThat(timedOut.at("/error/code").asString()).isEqualTo("service_timeout");
        List<ServerSentEvent<String>> tail = owner.taskEvents(agent, task, null, 100);
        assertThat(data(tail.get(tail.size() - 2)).get("status_code").asInt()).isEqualTo(504);
        assertError(createTask(Map.of("message", "x", "deadline_ms", Duration.ofDays(7).toMillis() + 1)), 400, "invalid_param",
                "deadline_ms");
        assertError(createTask(Map.of("message", "x", "deadline_ms", 0)), 400, "invalid_param", "deadline_ms");
    }

    @Test
    void anInBandFailureIsReportedInDoneOnly() {
        String task = owner.task(agent, "parse this\n/echo then=fail");
        List<ServerSentEvent<String>> events = owner.taskEvents(agent, task, null, 100);
        assertThat(events).extracting(ServerSentEvent::event).doesNotContain("error");
        JsonNode done = data(events.getLast());
        assertThat(done.get("code").asString()).isEqualTo("agent_reply_error");
        assertThat(done.get("is_error").asBoolean()).isTrue();
        assertThat(done.get("text").asString()).isEqualTo("echo failed: parse this");
    }

    @Test
    void aPlatformFailureSendsAnErrorFrameAsTheBlockingCallWouldAnswer() {
        String task = owner.task(agent, "down\n/echo then=unavailable");
        List<ServerSentEvent<String>> events = owner.taskEvents(agent, task, null, 100);
        JsonNode error = data(events.get(events.size() - 2));
        assertThat(error.get("code").asString()).isEqualTo("agent_service_unavailable");
        assertThat(error.get("status_code").asInt()).isEqualTo(503);
        assertThat(data(events.getLast()).get("code").asString()).isEqualTo("agent_service_unavailable");
        String rejected = owner.task(agent, "no\n/echo then=reject");
        assertThat(owner.awaitTask(agent, rejected, "rejected").at("/error/code").asString()).isEqualTo("conflict");
    }

    @Test
    void requestsAreChecked() {
        assertError(createTask(Map.of("context_id", "c")), 400, "missing_param", "message");
        assertError(createTask(Map.of("message", "")), 400, "invalid_param", "message");
        assertError(createTask(Map.of("message", "x", "colour", "red")), 400, "invalid_body", "");
        assertError(createTask(Map.of("message", "x", "attachments", List.of(Map.of("name", "a")))), 400, "missing_param",
                "attachments[0].file_id");
        assertError(createTask(Map.of("message", "x", "attachments", List.of(Map.of("file_id", UUID.randomUUID().toString())))), 400,
                "invalid_param", "attachments[0].file_id");
        assertError(createTask(Map.of("message", "x", "idempotency_key", "")), 400, "invalid_param", "idempotency_key");
        assertError(owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"message\":\"" + "a".repeat(1024 * 1024) + "\"}").exchange(), 413, "payload_too_large", "");
        String task = owner.task(agent, "fine");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}/events", agent, task).header("Last-Event-ID", "not-an-id").exchange(), 400,
                "invalid_param", "Last-Event-ID");
    }

    @Test
    void accessFollowsTheContractsErrorTable() {
        String task = owner.task(agent, "mine");
        PlatformClient stranger = stranger();
        assertError(stranger.get("/api/v1/agents/{a}/tasks/{t}", agent, task).exchange(), 404, "agent_not_found", "");
        assertError(stranger.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", "let me in")).exchange(), 403, "forbidden", "");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}", agent, UUID.randomUUID()).exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}", UUID.randomUUID(), task).exchange(), 404, "agent_not_found", "");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}", agent, "not-a-task").exchange(), 404, "agent_not_found", "");

        body(owner.patch("/api/v1/agents/{a}", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("visibility", "public")).exchange(), 200);
        String theirs = stranger.task(agent, "hello from outside");
        assertThat(stranger.awaitTask(agent, theirs, "completed").get("text").asString()).isEqualTo("echo: hello from outside");
        assertError(owner.get("/api/v1/agents/{a}/tasks/{t}", agent, theirs).exchange(), 404, "agent_not_found", "");
        assertError(owner.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, theirs).exchange(), 404, "agent_not_found", "");
    }

    @Test
    void aRepeatedIdempotencyKeyIsAConflictNamingTheTask() {
        JsonNode first = owner.task(agent, Map.of("message", "once", "idempotency_key", "key-1")).get("data");
        JsonNode duplicate = assertError(createTask(Map.of("message", "once", "idempotency_key", "key-1")), 409, "conflict", "");
        assertThat(duplicate.at("/metadata/task_id").asString()).isEqualTo(first.get("task_id").asString());
        assertThat(owner.task(agent, Map.of("message", "once", "idempotency_key", "key-2")).at("/data/task_id").asString())
                .isNotEqualTo(first.get("task_id").asString());
    }

    @Test
    void anAgentWhoseInstanceIsStoppedIsOffline() {
        body(owner.post("/api/v1/instances/{i}/stop", instance).exchange(), 200);
        owner.awaitInstance(instance, "stopped");
        assertError(createTask(Map.of("message", "anyone?")), 503, "agent_offline", "");
    }

    @Test
    void aTaskReadScansAtMost1000RowsAndSaysSo() {
        String task = owner.task(agent, "long story");
        JsonNode done = owner.awaitTask(agent, task, "completed");
        long offset = done.get("latest_offset").asLong();
        for (int index = 1; index <= TaskView.SCAN_CAP; index++) {
            jdbc().update("INSERT INTO channel_message (channel_id, log_offset, kind, turn, role, text, occurred_at)"
                    + " VALUES (?::uuid, ?, 'agent_message', 1, 'agent', ?, now())", task, offset + index, "note " + index);
        }
        JsonNode read = owner.taskView(agent, task);
        assertThat(read.get("truncated").asBoolean()).isTrue();
        assertThat(read.get("history")).hasSize(TaskView.SCAN_CAP);
        assertThat(read.at("/history/999/text").asString()).isEqualTo("note 1000");
    }

    @Test
    void aResumeOlderThanThePrunedChunksSaysBackfillTruncated() {
        String task = owner.task(agent, "ephemeral\n/echo deltas=3");
        List<ServerSentEvent<String>> full = owner.taskEvents(agent, task, null, 100);
        clock.advance(Duration.ofHours(25));
        assertThat(chunks.prune(Duration.ofHours(24), 10_000)).isGreaterThanOrEqualTo(3);
        List<ServerSentEvent<String>> resumed = owner.taskEvents(agent, task, full.getFirst().id(), 100);
        assertThat(resumed.getFirst().event()).isEqualTo("backfill_truncated");
        JsonNode truncated = data(resumed.getFirst());
        assertThat(truncated.get("oldest_redis_offset").asLong()).isEqualTo(Long.parseLong(full.get(1).id()));
        assertThat(resumed.subList(1, resumed.size())).extracting(ServerSentEvent::event)
                .containsExactly("task_status", "task_status", "agent_message", "task_status", "done");
        List<ServerSentEvent<String>> fromAfterTheChunks = owner.taskEvents(agent, task, full.get(5).id(), 100);
        assertThat(fromAfterTheChunks.getFirst().event()).isEqualTo("agent_message");
    }

    @Test
    void aRunningTurnStaysWithItsLiveNodePastTheTakeoverDelayWithNoWritePerSweep() {
        String task = owner.task(agent, "slow\n/echo take_ms=4000 deltas=2");
        // begun by a worker (the task says running once it is): the node holds the turn, not only its row
        owner.awaitTask(agent, task, "running");
        Map<String, Object> started = turnRow(task);
        assertThat(started.get("state")).isEqualTo("running");
        clock.advance(Duration.ofSeconds(25)); // past the takeover delay (20 s)
        runtime.recoverTurns();
        assertThat(turnRow(task)).as("not taken over, not touched").isEqualTo(started);
        assertThat(jdbc().queryForObject("SELECT (extract(epoch FROM heartbeat_at) * 1000)::bigint FROM local_runtime_node"
                + " WHERE node = ?", Long.class, started.get("claimed_by"))).as("the node's own heartbeat")
                .isGreaterThanOrEqualTo(((Number) started.get("claimed_ms")).longValue() + 25_000);
        owner.awaitTask(agent, task, "completed");
        await(() -> turnRow(task), row -> "reported".equals(row.get("state")), "the turn marked reported");
    }

    @Test
    void aStartedTurnItsDispatcherHasNotReachedIsLeftToTheDispatcherNotHandedBack() {
        StreamingEventProcessor dispatcher = processing.eventProcessor(TaskDispatcher.GROUP, StreamingEventProcessor.class).orElseThrow();
        dispatcher.shutdownAsync().join();
        String task;
        try {
            task = owner.task(agent, "behind a slow dispatcher");
            // its first turn handed over (the start in the view), the task queued until a worker begins it
            await(() -> jdbc().queryForList("SELECT turn FROM task_view WHERE id = ?::uuid", Integer.class, task), turns -> turns.equals(List.of(1)),
                    "the task's start in its view");
            assertThat(owner.taskView(agent, task).get("status").asString()).isEqualTo("queued");
            clock.advance(Duration.ofSeconds(5)); // long past the sweeper's grace for a started turn with no runtime record
            long advanced = clock.millis();
            await(() -> jdbc().queryForObject("SELECT (extract(epoch FROM max(heartbeat_at)) * 1000)::bigint FROM local_runtime_node",
                    Long.class), heartbeat -> heartbeat != null && heartbeat >= advanced, "a task sweep after the clock moved");
            assertThat(turnRow(task)).as("not handed to the runtime by the sweeper").isNull();
        } finally {
            dispatcher.start();
        }
        owner.awaitTask(agent, task, "completed");
    }

    @Test
    void aTurnHandedInWhileAClaimOfItsShareHoldsTheLockIsDatedAfterItsWait() throws Exception {
        String earlier = owner.task(agent, "earlier");
        owner.awaitTask(agent, earlier, "completed");
        UUID ownerId = jdbc().queryForObject("SELECT owner_id FROM local_turn WHERE channel_id = ?::uuid", UUID.class, earlier);
        String task;
        long heldNanos;
        try (Connection claim = dataSource.getConnection()) {
            claim.setAutoCommit(false);
            // the lock a claim of the owner's tasks holds (LocalAgentTurns: the shares' class, the share's key), exclusive
            try (PreparedStatement lock = claim.prepareStatement("SELECT pg_advisory_xact_lock(" + FAIR_SHARE_LOCKS
                    + ", hashtext(?::text || ':1'))")) {
                lock.setObject(1, ownerId);
                lock.executeQuery().close();
            }
            task = owner.task(agent, "handed in behind a claim");
            await(() -> jdbc().queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND NOT granted"
                    + " AND classid::bigint = ?", Integer.class, FAIR_SHARE_LOCKS), waiting -> waiting > 0, "the hand-off waiting for the lock");
            long waitingSince = System.nanoTime();
            assertThat(owner.taskView(agent, task).get("status").asString()).as("while its turn waits").isEqualTo("queued");
            heldNanos = System.nanoTime() - waitingSince;
            claim.commit();
        }
        owner.awaitTask(agent, task, "completed");
        // recorded with the instant read before the wait; claimed (at once: nothing waited) once the lock was let go
        long recordedToClaimedMicros = jdbc().queryForObject("SELECT (extract(epoch FROM claimed_at - created_at) * 1000000)::bigint"
                + " FROM local_turn WHERE channel_id = ?::uuid", Long.class, task);
        assertThat(recordedToClaimedMicros).as("claimed no sooner than the lock was let go").isGreaterThanOrEqualTo(heldNanos / 1000);
    }

    private Map<String, Object> turnRow(String task) {
        return jdbc().queryForList("SELECT state, claimed_by, (extract(epoch FROM claimed_at) * 1000)::bigint AS claimed_ms,"
                + " (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms FROM local_turn WHERE channel_id = ?::uuid", task)
                .stream().findFirst().orElse(null);
    }

    private WebTestClient.ResponseSpec createTask(Map<String, ?> body) {
        return owner.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private JsonNode messages(String task, String query) {
        return body(owner.get("/api/v1/agents/{a}/tasks/{t}/messages" + query, agent, task).exchange(), 200).get("data");
    }

    private static List<String> kinds(JsonNode log) {
        List<String> kinds = new ArrayList<>();
        log.get("messages").forEach(entry -> kinds.add(entry.get("kind").asString()));
        return kinds;
    }

    private static List<String> ids(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::id).filter(id -> id != null).toList();
    }

    private static List<String> ids(JsonNode tasks) {
        List<String> ids = new ArrayList<>();
        tasks.forEach(task -> ids.add(task.get("task_id").asString()));
        return ids;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
