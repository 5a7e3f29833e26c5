package org.agentplatform.infra.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.query.task.TaskProjection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Readiness tells the truth: DOWN while an event processor cannot make progress, UP again by itself once it can. */
class ReadinessHttpTest extends ApiTest {

    private static final String TRIGGER = "readiness_test_conflict";
    /** Counts the failed attempts: a sequence moves on whether or not the transaction that moved it commits. */
    private static final String ATTEMPTS = "readiness_test_attempts";

    @AfterEach
    void cleanUp() {
        removeTheCause();
        jdbc().execute("DROP SEQUENCE IF EXISTS " + ATTEMPTS);
    }

    private void removeTheCause() {
        jdbc().execute("DROP TRIGGER IF EXISTS " + TRIGGER + " ON task_view");
        jdbc().execute("DROP FUNCTION IF EXISTS " + TRIGGER + "()");
    }

    @Test
    void aProcessorThatKeepsFailingMakesTheNodeNotReadyUntilItRecovers() {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "readiness-" + UUID.randomUUID());
        assertThat(readiness().get("status").asString()).isEqualTo("UP");
        String context = "conflict-" + UUID.randomUUID();
        // a serialization failure is the database's trouble, not the event's: retried, never parked
        jdbc().execute("CREATE SEQUENCE " + ATTEMPTS);
        jdbc().execute("CREATE FUNCTION " + TRIGGER + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " IF NEW.context_id = '" + context + "' THEN PERFORM nextval('" + ATTEMPTS + "');"
                + " RAISE EXCEPTION 'simulated conflict' USING ERRCODE = '40001'; END IF;"
                + " RETURN NEW; END $$");
        jdbc().execute("CREATE TRIGGER " + TRIGGER + " BEFORE INSERT OR UPDATE ON task_view FOR EACH ROW EXECUTE FUNCTION " + TRIGGER + "()");
        String task = owner.task(agent, Map.of("message", "stuck", "context_id", context)).at("/data/task_id").asString();

        JsonNode down = PlatformClient.await(this::readiness, ready -> "DOWN".equals(ready.get("status").asString()), "readiness DOWN");
        assertThat(down.at("/components/eventProcessors/details/" + TaskProjection.GROUP).asString()).contains("failing");
        // a load balancer takes a node that is not ready out: DOWN is 503, on readiness and on the overall health
        assertThat(status("/actuator/health/readiness")).isEqualTo(503);
        assertThat(status("/actuator/health")).isEqualTo(503);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM dead_letter_entry", Long.class)).as("nothing parked").isZero();
        // DOWN from the third failed try (not the first: its segment's error state once said DOWN, then UP once the segment
        // was claimed again), and DOWN it stays while the processor keeps failing, across its wait for the next try
        // (ProcessorFailuresTest: across waits of up to a minute)
        long failed = attempts();
        assertThat(failed).as("failed tries when DOWN was first seen").isGreaterThanOrEqualTo(3);
        PlatformClient.await(() -> {
            assertThat(status("/actuator/health/readiness")).as("readiness until the next try").isEqualTo(503);
            assertThat(status("/actuator/health")).as("health until the next try").isEqualTo(503);
            return attempts();
        }, attempts -> attempts > failed, "the next failed try");

        removeTheCause();
        PlatformClient.await(this::readiness, ready -> "UP".equals(ready.get("status").asString()), "readiness UP again");
        assertThat(status("/actuator/health/readiness")).isEqualTo(200);
        assertThat(owner.awaitTask(agent, task, "completed").get("context_id").asString()).isEqualTo(context);
    }

    private long attempts() {
        return jdbc().queryForObject("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM " + ATTEMPTS, Long.class);
    }

    private int status(String path) {
        return http.get().uri(path).exchange().returnResult(String.class).getStatus().value();
    }

    private JsonNode readiness() {
        return json(http.get().uri("/actuator/health/readiness").exchange().expectBody().returnResult());
    }
}
