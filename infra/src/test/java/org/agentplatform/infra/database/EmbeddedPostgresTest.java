package org.agentplatform.infra.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.agentplatform.infra.support.PlatformClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL is supervised and signals only what it started: its postmaster killed, it is started again on
 * the same port and serves within seconds; a stale {@code postmaster.pid} naming another live PostgreSQL (a reused pid)
 * leaves that server running; a server a killed run left on the cluster is stopped; closing stops the child.
 */
class EmbeddedPostgresTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path home;

    private EmbeddedPostgres start(String name) throws Exception {
        return EmbeddedPostgres.start(home.resolve(name), new EmbeddedPostgres.Options(
                Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres"), 0, false, 20, Duration.ofSeconds(60)));
    }

    @Test
    void aKilledPostmasterIsStartedAgainAndServesWithinSeconds() throws Exception {
        try (EmbeddedPostgres postgres = start("supervised")) {
            assertThat(select(postgres.endpoint())).isEqualTo(1);
            long first = postgres.pid().orElseThrow();
            ProcessHandle.of(first).orElseThrow().destroyForcibly();

            awaitTrue(() -> postgres.state().restarts() == 1 && postgres.state().serving(), "started again");
            assertThat(postgres.pid().orElseThrow()).isNotEqualTo(first);
            awaitTrue(() -> selects(postgres.endpoint()), "serving again on the same port");
            assertThat(postgres.state().lastExit()).contains("exited");
        }
    }

    @Test
    void aStalePidFileNamingAnotherLivePostgresLeavesThatServerRunning() throws Exception {
        try (EmbeddedPostgres other = start("other")) {
            Path mine = home.resolve("mine");
            start("mine").close();
            // the cluster's file names the other server's pid, as after a crash and a reuse of the number
            Files.copy(home.resolve("other").resolve("postgres").resolve(PostmasterPid.FILE),
                    mine.resolve("postgres").resolve(PostmasterPid.FILE));
            long otherPid = other.pid().orElseThrow();
            try (EmbeddedPostgres restarted = start("mine")) {
                assertThat(select(restarted.endpoint())).isEqualTo(1);
            }
            assertThat(ProcessHandle.of(otherPid).map(ProcessHandle::isAlive)).contains(true);
            assertThat(select(other.endpoint())).isEqualTo(1);
        }
    }

    @Test
    void closingStopsTheServerItStarted() throws Exception {
        EmbeddedPostgres postgres = start("closed");
        long pid = postgres.pid().orElseThrow();
        postgres.close();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(postgres.state().serving()).isFalse();
    }

    private static int select(DatabaseEndpoint endpoint) throws SQLException {
        try (Connection connection = DriverManager.getConnection(endpoint.jdbcUrl(), endpoint.user(), endpoint.password());
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT 1")) {
            row.next();
            return row.getInt(1);
        }
    }

    private static boolean selects(DatabaseEndpoint endpoint) {
        try {
            return select(endpoint) == 1;
        } catch (SQLException notYet) {
            return false;
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        PlatformClient.await(condition::getAsBoolean, Boolean::booleanValue, what, PATIENCE);
    }
}
