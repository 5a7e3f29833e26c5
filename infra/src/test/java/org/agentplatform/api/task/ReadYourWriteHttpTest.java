package org.agentplatform.api.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
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
 * A 202 is the truth whatever the read model's lag: with the task projection held back (its table locked by the test,
 * as a flood's backlog would hold it), every task the service accepted answers its {@code GET} and its {@code /events}
 * at once, from the event store, and the {@code created_at} (and {@code deadline_at}) of the 202 are the stored ones;
 * likewise a runtime method's call and its operation's {@code GET} while the operation's view is held back. A deploy or
 * an agent the view of which is held back is never 404: 504 with {@code Retry-After} (a deploy's naming the instance).
 */
class ReadYourWriteHttpTest extends ApiTest {

    private static final int TASKS = 24;

    @Autowired
    private DataSource dataSource;
    private PlatformClient owner;
    private String instance;
    private String agent;

    @BeforeEach
    void anAgent() {
        owner = new PlatformClient(http, createKey(Map.of("name", "read your write", "rate_limit_per_minute", 100_000)));
        instance = owner.runningInstance("linux");
        agent = owner.createAgent(instance, "answering");
    }

    @Test
    void everyAcceptedTaskIsReadableAtOnceWhileItsProjectionLags() throws Exception {
        List<JsonNode> accepted;
        List<String> refused;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("LOCK TABLE task_view IN EXCLUSIVE MODE");
            }
            accepted = Flux.range(0, TASKS).flatMap(index -> Mono.fromCallable(() -> owner.task(agent,
                            Map.of("message", "held back " + index, "deadline_ms", 600_000)).get("data"))
                    .subscribeOn(Schedulers.boundedElastic()), 8).collectList().block();
            refused = Flux.fromIterable(accepted).flatMap(created -> Mono.fromCallable(() -> readAtOnce(created))
                    .subscribeOn(Schedulers.boundedElastic()), 8).filter(verdict -> !verdict.isEmpty()).collectList().block();
            assertThat(count("SELECT count(*) FROM task_view WHERE id = ANY(?::uuid[])", accepted))
                    .as("the projection was held back the whole time").isZero();
            holder.rollback();
        }
        assertThat(refused).as("accepted tasks not answered at once").isEmpty();
        for (JsonNode created : accepted) {
            JsonNode read = owner.awaitTask(agent, created.get("task_id").asString(), "completed");
            assertThat(read.get("created_at").asString()).isEqualTo(created.get("created_at").asString());
            assertThat(read.get("deadline_at").asString()).isEqualTo(created.get("deadline_at").asString());
        }
    }

    @Test
    void aQueuedOperationAnswersItsCallAndItsReadWhileItsViewLags() throws Exception {
        String operation;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("LOCK TABLE operation_view IN EXCLUSIVE MODE");
            }
            JsonNode called = owner.call(instance, "cron/list", Map.of());
            operation = called.at("/result/id").asString();
            assertThat(called.at("/result/method").asString()).isEqualTo("cron/list");
            assertThat(owner.operation(instance, operation).get("id").asString()).isEqualTo(operation);
            assertThat(jdbc().queryForObject("SELECT count(*) FROM operation_view WHERE id = ?::uuid", Integer.class, operation))
                    .as("the view was held back the whole time").isZero();
            holder.rollback();
        }
        owner.awaitOperation(instance, operation, "succeeded");
    }

    @Test
    void aDeployWhoseViewLagsAnswers504WithItsIdAndItsReadIsNever404() throws Exception {
        String deployed;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("LOCK TABLE instance_view IN EXCLUSIVE MODE");
            }
            JsonNode refused = behind(owner.post("/api/v1/instances").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("provider", "local", "region", "local", "kind", "linux")).exchange());
            deployed = refused.at("/error/metadata/instance_id").asString();
            assertThat(deployed).as("the 504 names the accepted instance").isNotBlank();
            behind(owner.get("/api/v1/instances/{i}", deployed).exchange());
            holder.rollback();
        }
        owner.awaitInstance(deployed, "running");
    }

    @Test
    void anAgentWhoseViewLagsIsNever404AfterItsCreateSucceeded() throws Exception {
        String created;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("LOCK TABLE agent_view IN EXCLUSIVE MODE");
            }
            String operation = owner.operationOf(instance, "agent/create", Map.of("name", "held back"));
            created = owner.awaitOperation(instance, operation, "succeeded").at("/projection/platformAgentId").asString();
            behind(owner.get("/api/v1/agents/{a}", created).exchange());
            holder.rollback();
        }
        assertThat(PlatformClient.body(owner.get("/api/v1/agents/{a}", created).exchange(), 200).at("/data/id").asString())
                .isEqualTo(created);
    }

    /** The answer to a request about a resource accepted while its read model is held: 504 with Retry-After, never 404. */
    private static JsonNode behind(WebTestClient.ResponseSpec response) {
        JsonNode refused = PlatformClient.body(response.expectHeader().valueEquals("Retry-After", "1"), 504);
        assertThat(refused.at("/error/code").asString()).isEqualTo("service_timeout");
        return refused;
    }

    @Test
    void theCreatesInstantsAreTheStoredOnes() {
        JsonNode created = owner.task(agent, Map.of("message", "when?", "deadline_ms", 5_000)).get("data");
        JsonNode read = owner.taskView(agent, created.get("task_id").asString());
        assertThat(read.get("created_at").asString()).isEqualTo(created.get("created_at").asString());
        assertThat(read.get("deadline_at").asString()).isEqualTo(created.get("deadline_at").asString());
        String storedAt = jdbc().queryForObject("SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND sequence_number = 0", String.class, created.get("task_id").asString());
        assertThat(java.time.Instant.parse(created.get("created_at").asString())).isEqualTo(java.time.Instant.parse(storedAt));
    }

    /** Empty when the task answers its read and its stream at once; what went wrong otherwise. */
    private String readAtOnce(JsonNode created) {
        String task = created.get("task_id").asString();
        int status = owner.get("/api/v1/agents/{a}/tasks/{t}", agent, task).exchange().returnResult(String.class).getStatus().value();
        if (status != 200) {
            return task + ": GET answered " + status;
        }
        JsonNode read = owner.taskView(agent, task);
        if (!read.get("created_at").asString().equals(created.get("created_at").asString())) {
            return task + ": created_at " + read.get("created_at") + " read, " + created.get("created_at") + " accepted";
        }
        List<ServerSentEvent<String>> frames = owner.taskEvents(agent, task, null, 2);
        if (frames.size() != 2 || !"user_message".equals(frames.getFirst().event())) {
            return task + ": /events began " + frames;
        }
        return "";
    }

    private int count(String sql, List<JsonNode> tasks) {
        return jdbc().queryForObject(sql, Integer.class, (Object) tasks.stream().map(task -> task.get("task_id").asString())
                .toArray(String[]::new));
    }
}
