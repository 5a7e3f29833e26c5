package org.agentplatform.infra.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.cli.DeadLettersCommand;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.task.TaskProjection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.JsonNode;

/**
 * A projection handler that fails on one aggregate parks that aggregate's events; every other aggregate goes on.
 * Health and the metric show the parked events, the command line lists them, and once the cause is gone a retry
 * from the command line applies them in order.
 */
class DeadLetterHttpTest extends ApiTest {

    private static final String TRIGGER = "dead_letter_test_refusal";


    @AfterEach
    void removeTheCause() {
        dropTrigger();
    }

    @Test
    void aFailingAggregateIsParkedWhileOthersCompleteAndARetryAppliesIt() {
        PlatformClient owner = platform();
        String instance = owner.runningInstance("linux");
        String agent = owner.createAgent(instance, "dead-letters-" + UUID.randomUUID());
        String poison = "poison-" + UUID.randomUUID();
        jdbc().execute("CREATE FUNCTION " + TRIGGER + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.context_id = '" + poison + "' THEN RAISE EXCEPTION 'the test refuses this task'; END IF;"
                + " RETURN NEW; END $$");
        jdbc().execute("CREATE TRIGGER " + TRIGGER + " BEFORE INSERT OR UPDATE ON task_view FOR EACH ROW EXECUTE FUNCTION "
                + TRIGGER + "()");

        String parked = owner.task(agent, Map.of("message", "refused", "context_id", poison)).at("/data/task_id").asString();
        List<String> others = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            others.add(owner.task(agent, "others go on " + i));
        }
        for (String task : others) {
            assertThat(owner.awaitTask(agent, task, "completed").get("text").asString()).contains("others go on");
        }

        JsonNode health = PlatformClient.await(this::health,
                h -> "DEGRADED".equals(h.at("/components/deadLetters/status").asString()), "health reports the parked event");
        assertThat(health.get("status").asString()).isEqualTo("DEGRADED");
        assertThat(health.at("/components/deadLetters/details/processors/" + TaskProjection.GROUP + "/events").asLong()).isPositive();
        assertThat(health.at("/components/deadLetters/details/processors/" + TaskProjection.GROUP + "/sequences").asLong()).isOne();
        assertThat(prometheus()).containsPattern("agent_platform_dead_letters\\{processor=\"" + TaskProjection.GROUP + "\"[^}]*} [1-9]");
        assertThat(jdbc().queryForObject("SELECT count(*) FROM task_view WHERE id = ?::uuid", Long.class, parked)).isZero();

        ByteArrayOutputStream listed = new ByteArrayOutputStream();
        assertThat(cli(listed, "list", "--processor", TaskProjection.GROUP)).isEqualTo(1);
        assertThat(listed.toString(StandardCharsets.UTF_8)).contains(TaskProjection.GROUP).contains(parked)
                .contains("the test refuses this task");

        // still failing: a retry leaves it parked
        ByteArrayOutputStream stillFailing = new ByteArrayOutputStream();
        assertThat(cli(stillFailing, "retry", "--processor", TaskProjection.GROUP)).isEqualTo(1);
        assertThat(stillFailing.toString(StandardCharsets.UTF_8)).contains("0 sequence(s) applied");

        dropTrigger();
        ByteArrayOutputStream retried = new ByteArrayOutputStream();
        assertThat(cli(retried, "retry", "--processor", TaskProjection.GROUP)).isEqualTo(0);
        assertThat(retried.toString(StandardCharsets.UTF_8)).contains("1 sequence(s) applied, 0 event(s) still parked");

        JsonNode applied = owner.awaitTask(agent, parked, "completed");
        assertThat(applied.get("context_id").asString()).isEqualTo(poison);
        PlatformClient.await(this::health, h -> "UP".equals(h.at("/components/deadLetters/status").asString()), "health back UP");
    }

    private JsonNode health() {
        return json(http.get().uri("/actuator/health").exchange().expectBody().returnResult());
    }

    private String prometheus() {
        return http.get().uri("/actuator/prometheus").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    private int cli(ByteArrayOutputStream out, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(cliSettings());
        return DeadLettersCommand.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    }

    private void dropTrigger() {
        jdbc().execute("DROP TRIGGER IF EXISTS " + TRIGGER + " ON task_view");
        jdbc().execute("DROP FUNCTION IF EXISTS " + TRIGGER + "()");
    }
}
