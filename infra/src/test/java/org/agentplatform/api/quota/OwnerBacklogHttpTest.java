package org.agentplatform.api.quota;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.agentplatform.infra.support.PlatformClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * An owner's backlog is bounded: past {@code max-unfinished-per-owner} queued or running tasks a create is 429
 * {@code rate_limited} with {@code Retry-After}, while the owner's invokes (their own bound), another owner, and the
 * owner itself once a task ended are admitted; a conversation takes at most {@code max-waiting-messages} behind its
 * running turn. The tasks that hold their places are echo turns that take ten minutes.
 */
@DirtiesContext
@TestPropertySource(properties = {"agent-platform.tasks.max-unfinished-per-owner=3", "agent-platform.tasks.max-unfinished-invokes-per-owner=1",
        "agent-platform.conversations.max-waiting-messages=1"})
class OwnerBacklogHttpTest extends ApiTest {

    private static final String HOLD = "\n/echo take_ms=600000";

    @Test
    void pastItsBoundAnOwnersCreateIsRefusedWhileItsInvokesAndAnotherOwnerAreAdmitted() {
        PlatformClient flooding = stranger();
        String agent = flooding.createAgent(flooding.runningInstance("linux"), "busy");
        List<String> held = IntStream.range(0, 3).mapToObj(index -> flooding.task(agent, "hold " + index + HOLD)).toList();

        WebTestClient.ResponseSpec refused = create(flooding, agent, "one too many");
        // none of the owner's tasks settled since it was counted: a minute
        refused.expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "60");
        JsonNode error = assertError(refused, 429, "rate_limited", "");
        assertThat(error.at("/metadata/limit").asString()).isEqualTo("3");
        assertThat(error.at("/metadata/unfinished").asString()).isEqualTo("3");
        assertThat(error.at("/metadata/retry_after_seconds").asString()).isEqualTo("60");
        assertThat(await(() -> body(flooding.get("/api/v1/tasks").exchange(), 200).at("/data/tasks").findValuesAsString("task_id"),
                listed -> listed.size() >= held.size(), "the inbox showing the admitted tasks"))
                .as("nothing created by the refusal").containsExactlyInAnyOrderElementsOf(held);

        // invokes have their own bound: one is admitted, and goes on past its timeout; the next is refused
        String invoked = assertError(invoke(flooding, agent, "answer" + HOLD), 504, "service_timeout", "").at("/metadata/task_id").asString();
        assertError(invoke(flooding, agent, "and another"), 429, "rate_limited", "");

        PlatformClient neighbour = stranger();
        String theirs = neighbour.createAgent(neighbour.runningInstance("linux"), "quiet");
        neighbour.awaitTask(theirs, neighbour.task(theirs, "hello"), "completed");

        // a task that ends frees its place once the count is read again
        cancel(flooding, agent, held.getFirst());
        flooding.awaitTask(agent, held.getFirst(), "canceled");
        clock.advance(Duration.ofSeconds(1));
        String admitted = flooding.task(agent, "room again" + HOLD);
        assertError(create(flooding, agent, "full again"), 429, "rate_limited", "");

        for (String task : List.of(held.get(1), held.get(2), admitted, invoked)) {
            cancel(flooding, agent, task);
        }
    }

    @Test
    void aConversationTakesItsBoundOfWaitingMessages() {
        PlatformClient owner = stranger();
        String agent = owner.createAgent(owner.runningInstance("linux"), "chatty");
        String conversation = owner.conversation(agent);
        owner.say(agent, conversation, "hold" + HOLD);
        owner.awaitTurn(agent, conversation, 1, "running");
        owner.say(agent, conversation, "waits behind it");

        WebTestClient.ResponseSpec refused = say(owner, agent, conversation, "one too many");
        refused.expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "1");
        JsonNode error = assertError(refused, 429, "rate_limited", "");
        assertThat(error.at("/metadata/limit").asString()).isEqualTo("1");

        // once the running turn ends, the waiting message runs and another may wait
        body(owner.post("/api/v1/agents/{a}/conversations/{c}/cancel", agent, conversation).exchange(), 200);
        owner.awaitTurn(agent, conversation, 2, "completed");
        owner.say(agent, conversation, "room again");
        owner.awaitTurn(agent, conversation, 3, "completed");
    }

    private static WebTestClient.ResponseSpec create(PlatformClient caller, String agent, String message) {
        return caller.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", message))
                .exchange();
    }

    private static WebTestClient.ResponseSpec invoke(PlatformClient caller, String agent, String message) {
        return caller.post("/api/v1/agents/{a}/invoke", agent).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", message, "timeout_ms", 150)).exchange();
    }

    private static WebTestClient.ResponseSpec say(PlatformClient caller, String agent, String conversation, String message) {
        return caller.post("/api/v1/agents/{a}/conversations/{c}/messages", agent, conversation).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("message", message)).exchange();
    }

    private static void cancel(PlatformClient caller, String agent, String task) {
        body(caller.post("/api/v1/agents/{a}/tasks/{t}/cancel", agent, task).exchange(), 200);
    }
}
