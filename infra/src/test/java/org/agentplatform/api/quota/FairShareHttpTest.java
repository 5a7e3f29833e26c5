package org.agentplatform.api.quota;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import tools.jackson.databind.JsonNode;

/**
 * A saturated node asks the owner that creates past its share to wait, and only that owner: with the task projection's
 * writes held by a lock the test takes, the node falls behind the store (here 10 events are saturation), and while it is,
 * the flooding owner's creates
 * are refused 429 {@code rate_limited} with {@code Retry-After: 1} while its neighbour's are admitted; once the projection
 * has caught up, the flooding owner is admitted again. (The other test contexts never count their node saturated: a
 * refusal that hangs on the machine's load is not theirs to meet.)
 */
@DirtiesContext
@TestPropertySource(properties = "agent-platform.tasks.saturation-lag-events=10")
class FairShareHttpTest extends ApiTest {

    @Test
    void whileTheNodeIsSaturatedTheOwnerPastItsShareWaitsAndItsNeighbourDoesNot() throws SQLException {
        PlatformClient flooding = stranger();
        PlatformClient steady = stranger();
        String floodingAgent = flooding.createAgent(flooding.runningInstance("linux"), "flooding");
        String steadyAgent = steady.createAgent(steady.runningInstance("linux"), "steady");
        // the owners' rates move with the test's clock alone (100 ms a create of the flooding owner), however slow the machine
        clock.stop();
        // the projection goes on reading events and waits to write them: it falls behind the store as a slow one does
        try (Connection holding = jdbc().getDataSource().getConnection()) {
            holding.setAutoCommit(false);
            try (Statement lock = holding.createStatement()) {
                lock.execute("LOCK TABLE task_view IN EXCLUSIVE MODE");
            }
            EntityExchangeResult<byte[]> refused = null;
            for (int created = 0; refused == null; created++) {
                assertThat(created).as("the flooding owner refused once the node is behind").isLessThan(1_000);
                if (created % 4 == 0) {
                    assertThat(create(steady, steadyAgent, "steady " + created).getStatus().value()).isEqualTo(202);
                }
                clock.advance(Duration.ofMillis(FairShare.TOTAL_MS));
                EntityExchangeResult<byte[]> answer = create(flooding, floodingAgent, "flood " + created);
                if (answer.getStatus().value() != 202) {
                    refused = answer;
                }
            }
            assertThat(refused.getStatus().value()).isEqualTo(429);
            assertThat(refused.getResponseHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
            JsonNode error = json(refused).get("error");
            assertThat(error.get("code").asString()).isEqualTo("rate_limited");
            assertThat(error.get("message").asString()).contains("at capacity").contains("shared by 2 owners");
            assertThat(error.at("/metadata/retry_after_seconds").asString()).isEqualTo("1");
            // a refusal is not an admission: the owner is still past its share; the neighbour meanwhile, within its own, is admitted
            assertThat(create(flooding, floodingAgent, "still past its share").getStatus().value()).isEqualTo(429);
            // held before its body is read: a create the validation would refuse 400 is refused 429 while past its share
            assertThat(create(flooding, floodingAgent, "").getStatus().value()).isEqualTo(429);
            assertThat(create(steady, steadyAgent, "steady meanwhile").getStatus().value()).isEqualTo(202);
            holding.rollback();
        }
        // caught up: the node is not saturated any more, and the flooding owner is admitted again
        clock.reset();
        await(() -> create(flooding, floodingAgent, "room again").getStatus().value(), status -> status == 202,
                "the flooding owner admitted once the projection caught up");
    }

    private static EntityExchangeResult<byte[]> create(PlatformClient caller, String agent, String message) {
        return caller.post("/api/v1/agents/{a}/tasks", agent).contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("message", message))
                .exchange().expectBody().returnResult();
    }
}
