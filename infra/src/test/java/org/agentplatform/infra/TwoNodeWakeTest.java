package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.eventstore.CommitAnnouncer;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.StandaloneService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two nodes on one PostgreSQL: node A, started first, holds the processors' segments and does not poll the store (its poll
 * interval is an hour); node B's commits are announced to it ({@code CommitAnnouncer}, LISTEN/NOTIFY), and a task created
 * through B is carried out and readable through both.
 */
class TwoNodeWakeTest {

    @TempDir
    Path home;

    @Test
    void aNodeHearsAnotherNodesCommitsAndTheirWorkIsCarriedOut() throws IOException {
        Path dataA = home.resolve("a");
        try (ConfigurableApplicationContext nodeA = StandaloneService.start(dataA, "--agent-platform.events.poll-interval=1h")) {
            PlatformClient viaA = StandaloneService.client(nodeA, dataA);
            String agent = viaA.createAgent(viaA.runningInstance("linux"), "two-nodes");
            DatabaseEndpoint database = nodeA.getBean(DatabaseServer.class).endpoint();
            try (ConfigurableApplicationContext nodeB = StandaloneService.start(home.resolve("b"),
                    "--agent-platform.database.url=jdbc:postgresql://" + database.host() + ":" + database.port() + "/" + database.database(),
                    "--agent-platform.database.user=" + database.user(),
                    "--agent-platform.database.password=" + database.password(),
                    "--agent-platform.secrets.key=" + Files.readString(dataA.resolve("secret.key")).strip())) {
                PlatformClient viaB = StandaloneService.client(nodeB, dataA);
                CommitAnnouncer announcedToA = nodeA.getBean(CommitAnnouncer.class);
                long heardBefore = announcedToA.heard();
                String task = viaB.task(agent, "made on node B");
                PlatformClient.await(announcedToA::heard, heard -> heard > heardBefore, "node A hearing node B's commit");
                assertThat(viaB.awaitTask(agent, task, "completed").get("text").asString()).isEqualTo("echo: made on node B");
                assertThat(viaA.taskView(agent, task).get("status").asString()).isEqualTo("completed");
            }
        }
    }
}
