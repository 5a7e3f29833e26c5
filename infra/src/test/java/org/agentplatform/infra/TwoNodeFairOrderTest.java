package org.agentplatform.infra;

import static org.agentplatform.infra.support.PlatformClient.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.agentplatform.infra.support.ExternalIdentityProvider;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.ServiceProcess;
import org.agentplatform.query.channel.ChannelLocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Two service processes on one PostgreSQL claim waiting turns in one fair order. Each node has one turn worker and room
 * for one claimed turn. The test fills both: conversation turns whose channel lock it holds, so that a worker that begins
 * one waits for the lock (two waiting: both workers held), and one more each waiting for the worker (both nodes' gauge of
 * claimed turns at one). Then one owner's flood and another owner's task are handed in and wait in PostgreSQL, their
 * channels locked too. Once the first locks go, each node claims two of them (one holding its worker, one waiting for it);
 * once all go, the rest. In the order of the claims across both nodes, the other owner's task is among the first two and
 * the flood's tasks are in the order they were created.
 */
class TwoNodeFairOrderTest {

    private static final int FLOOD = 10;
    /** Two workers held and two claimed turns waiting for them: four turns, each either. */
    private static final int TO_FILL = 4;

    @TempDir
    Path home;

    @Test
    void twoNodesClaimOneFairOrder() throws IOException, SQLException {
        byte[] vaultKey = new byte[32];
        new SecureRandom().nextBytes(vaultKey);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start(home.resolve("postgres"), new EmbeddedPostgres.Options(
                Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres"), 0, false, 200, Duration.ofSeconds(60)))) {
            runTwoNodes(postgres.endpoint(), Base64.getEncoder().encodeToString(vaultKey));
        }
    }

    private void runTwoNodes(DatabaseEndpoint database, String vaultKey) throws SQLException {
        ExternalIdentityProvider idp = ExternalIdentityProvider.get();
        String[] shared = {
                "--agent-platform.database.url=" + database.jdbcUrl(),
                "--agent-platform.database.user=" + database.user(),
                "--agent-platform.database.password=" + database.password(),
                "--agent-platform.secrets.key=" + vaultKey,
                "--agent-platform.jwt.jwks-uri=" + idp.jwksUri(),
                "--agent-platform.jwt.issuer=" + ExternalIdentityProvider.ISSUER,
                "--agent-platform.jwt.audience=" + ExternalIdentityProvider.AUDIENCE,
                "--agent-platform.tasks.turn-workers=1",
                "--agent-platform.tasks.max-queued-turns=1",
                "--agent-platform.control.real-x=false"};
        SingleConnectionDataSource reader = new SingleConnectionDataSource(database.jdbcUrl(), database.user(), database.password(), true);
        try (ServiceProcess nodeA = ServiceProcess.start("A", home.resolve("a"), shared);
             ServiceProcess nodeB = ServiceProcess.start("B", home.resolve("b"), shared);
             Connection holder = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password())) {
            JdbcTemplate jdbc = new JdbcTemplate(reader);
            String operator = nodeA.firstKey();
            PlatformClient flooding = nodeA.client(operator);
            PlatformClient neighbour = nodeB.client(idp.token(idp.claims("neighbour").build()));
            String agent = flooding.createAgent(flooding.runningInstance("linux"), "flooding");
            String theirs = neighbour.createAgent(neighbour.runningInstance("linux"), "neighbour");

            holder.setAutoCommit(false);
            for (int filled = 1; filled <= TO_FILL; filled++) {
                String conversation = flooding.conversation(agent);
                lock(holder, "pg_advisory_xact_lock", conversation);
                flooding.say(agent, conversation, "hold\n/echo deltas=1");
                int expected = filled;
                await(() -> waitingForLocks(jdbc) + claimedWaiting(nodeA, operator) + claimedWaiting(nodeB, operator), held -> held == expected,
                        "turn " + filled + " holding a worker or waiting for one");
            }
            assertThat(waitingForLocks(jdbc)).as("both nodes' worker held").isEqualTo(2);

            List<String> flood = IntStream.rangeClosed(1, FLOOD).mapToObj(index -> flooding.task(agent, "flood " + index)).toList();
            String neighbours = neighbour.task(theirs, "my turn");
            List<String> waiting = new ArrayList<>(flood);
            waiting.add(neighbours);
            await(() -> jdbc.queryForObject("SELECT count(*) FROM local_turn WHERE state = 'ready' AND channel_id = ANY(?::uuid[])",
                    Integer.class, (Object) waiting.toArray(String[]::new)), count -> count == waiting.size(), "every turn handed in, waiting");
            // the waiting turns' channels locked too (past the transaction): the first each node claims holds its worker, the
            // next waits for it, so the first four of the order go two to each node
            for (String channel : waiting) {
                lock(holder, "pg_advisory_lock", channel);
            }
            holder.rollback();
            await(() -> waitingForLocks(jdbc) + claimedWaiting(nodeA, operator) + claimedWaiting(nodeB, operator), held -> held == TO_FILL,
                    "the first four of the order claimed, two by each node");
            assertThat(waitingForLocks(jdbc)).as("each node's worker on the first turn it claimed").isEqualTo(2);
            try (Statement unlock = holder.createStatement()) {
                unlock.execute("SELECT pg_advisory_unlock_all()");
            }

            for (String task : flood) {
                flooding.awaitTask(agent, task, "completed");
            }
            neighbour.awaitTask(theirs, neighbours, "completed");
            List<Map<String, Object>> started = jdbc.queryForList("SELECT channel_id::text AS channel, claimed_by FROM local_turn"
                    + " WHERE channel_id = ANY(?::uuid[]) ORDER BY claimed_at, log_window", (Object) waiting.toArray(String[]::new));
            List<String> order = started.stream().map(row -> (String) row.get("channel")).toList();
            assertThat(order.indexOf(neighbours)).as("the other owner's task among the first two the nodes started").isLessThan(2);
            assertThat(order.stream().filter(flood::contains).toList()).as("the flood's tasks in creation order, across both nodes")
                    .containsExactlyElementsOf(flood);
            assertThat(started.stream().map(row -> row.get("claimed_by")).distinct()).as("both nodes claimed from the one order").hasSize(2);
        } finally {
            reader.destroy();
        }
    }

    /** Takes the channel's lock (the one the chunk writer takes) with {@code function}: for the transaction, or the session. */
    private static void lock(Connection holder, String function, String channel) throws SQLException {
        try (PreparedStatement lock = holder.prepareStatement("SELECT " + function + "(?)")) {
            lock.setLong(1, ChannelLocks.key(UUID.fromString(channel)));
            lock.executeQuery().close();
        }
    }

    /** Workers waiting for a channel lock the test holds (one-key advisory locks: the fair shares' take two keys). */
    private static int waitingForLocks(JdbcTemplate jdbc) {
        return jdbc.queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND NOT granted",
                Integer.class);
    }

    /** The node's claimed turns waiting for its worker (its gauge). */
    private static int claimedWaiting(ServiceProcess node, String operatorKey) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(node.baseUrl() + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + operatorKey).build();
        try {
            String exposition = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
            Matcher sample = Pattern.compile("(?m)^agent_platform_turns_claimed_waiting(\\{[^}]*})? (\\S+)$").matcher(exposition);
            return sample.find() ? (int) Double.parseDouble(sample.group(2)) : 0;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
