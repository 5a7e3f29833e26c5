package org.agentplatform.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Held statements on PostgreSQL: nothing runs before the commit; then each key's statements run in the order given,
 * whatever the texts of other keys' statements in between; each key notifies once, its last payload; and when holding
 * is not allowed every statement and its notification run at once; a foldable statement held right after another of its key
 * that takes it in goes as one statement with it.
 */
class HeldStatementsTest extends ApiTest {

    private static final String SET = "UPDATE held_test SET v = v * 10 + ? WHERE k = ?";
    /** Another text for the same change, so the order across texts shows. */
    private static final String SET_AGAIN = "UPDATE held_test SET v = v * 10 + ? WHERE k = ? AND true";

    @Autowired
    private PlatformTransactionManager transactions;

    @Autowired
    private DataSource dataSource;

    private final String channel = "held_test_" + UUID.randomUUID().toString().replace("-", "");

    @BeforeEach
    void table() {
        jdbc().execute("CREATE TABLE IF NOT EXISTS held_test (k text PRIMARY KEY, v bigint NOT NULL, t text NOT NULL DEFAULT '')");
        jdbc().execute("TRUNCATE held_test");
    }

    @AfterEach
    void dropped() {
        jdbc().execute("DROP TABLE IF EXISTS held_test");
    }

    @Test
    void heldStatementsRunAtTheCommitInEachKeysOrderAndEachKeyNotifiesOnce() throws Exception {
        HeldStatements held = new HeldStatements(jdbc(), holding(true), channel);
        try (Connection listener = dataSource.getConnection()) {
            listen(listener);
            new TransactionTemplate(transactions).executeWithoutResult(status -> {
                held.run("a", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"a", 1}, "a:1");
                held.run("b", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"b", 4}, "b:1");
                held.run("a", SET, new Object[] {2, "a"}, "a:2");
                held.run("b", SET_AGAIN, new Object[] {5, "b"}, "b:2");
                held.run("a", SET_AGAIN, new Object[] {3, "a"}, "a:3");
                held.run("b", SET, new Object[] {6, "b"}, "b:3");
                held.run("c", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"c", 7}, "c:1");
                assertThat(jdbc().queryForObject("SELECT count(*) FROM held_test", Long.class)).as("nothing ran yet").isZero();
            });
            assertThat(jdbc().queryForMap("SELECT (SELECT v FROM held_test WHERE k = 'a') AS a, (SELECT v FROM held_test WHERE k = 'b') AS b,"
                    + " (SELECT v FROM held_test WHERE k = 'c') AS c")).isEqualTo(Map.of("a", 123L, "b", 456L, "c", 7L));
            assertThat(notifications(listener, 3)).containsExactlyInAnyOrder("a:3", "b:3", "c:1");
        }
    }

    @Test
    void statementsRunAtOnceWhenHoldingIsNotAllowed() throws Exception {
        HeldStatements atOnce = new HeldStatements(jdbc(), holding(false), channel);
        try (Connection listener = dataSource.getConnection()) {
            listen(listener);
            new TransactionTemplate(transactions).executeWithoutResult(status -> {
                atOnce.run("a", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"a", 1}, "a:1");
                atOnce.run("a", SET, new Object[] {2, "a"}, "a:2");
                assertThat(jdbc().queryForObject("SELECT v FROM held_test WHERE k = 'a'", Long.class)).isEqualTo(12L);
            });
            assertThat(notifications(listener, 2)).containsExactly("a:1", "a:2");
        }
    }

    /** Appends its text to the row's; folded with the next one of its row, the two texts joined with '+' (so a fold shows). */
    private record Append(String key, String text) implements HeldStatements.Foldable {

        @Override
        public HeldStatements.Foldable fold(HeldStatements.Foldable next) {
            return next instanceof Append later && later.key().equals(key) ? new Append(key, text + "+" + later.text()) : null;
        }

        @Override
        public String sql() {
            return "UPDATE held_test SET t = t || ? WHERE k = ?";
        }

        @Override
        public Object[] arguments() {
            return new Object[] {text, key};
        }
    }

    @Test
    void aFoldableStatementFoldsIntoTheOneHeldJustBeforeItForItsKeyOnly() {
        HeldStatements held = new HeldStatements(jdbc(), holding(true), channel);
        jdbc().update("INSERT INTO held_test (k, v) VALUES ('a', 0), ('b', 0)");
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            held.run("a", new Append("a", "1"), "a:1");
            held.run("b", new Append("b", "x"), "b:1");
            // folds with a's last, although b's came in between
            held.run("a", new Append("a", "2"), "a:2");
            // a plain statement is not folded into, and ends the fold: the next one starts anew
            held.run("a", SET, new Object[] {5, "a"}, "a:3");
            held.run("a", new Append("a", "3"), "a:4");
            held.run("a", new Append("a", "4"), "a:5");
        });
        assertThat(jdbc().queryForMap("SELECT (SELECT t FROM held_test WHERE k = 'a') AS a, (SELECT t FROM held_test WHERE k = 'b') AS b,"
                + " (SELECT v FROM held_test WHERE k = 'a') AS v")).isEqualTo(Map.of("a", "1+23+4", "b", "x", "v", 5L));
    }

    @Test
    void aTransactionThatBeganHoldingHoldsToItsEndSoNoStatementOvertakesAHeldOne() {
        boolean[] holding = {true};
        HeldStatements held = new HeldStatements(jdbc(), new WriteBatching() {
            @Override
            public boolean holding() {
                return holding[0];
            }

            @Override
            public void failed(RuntimeException failure) {
            }
        }, channel);
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            held.run("a", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"a", 1}, "a:1");
            holding[0] = false;
            held.run("a", SET, new Object[] {2, "a"}, "a:2");
            assertThat(jdbc().queryForObject("SELECT count(*) FROM held_test", Long.class)).isZero();
        });
        assertThat(jdbc().queryForObject("SELECT v FROM held_test WHERE k = 'a'", Long.class)).isEqualTo(12L);
    }

    @Test
    void aHeldStatementThatFailsFailsTheCommitAndSaysSo() {
        List<RuntimeException> failures = new ArrayList<>();
        HeldStatements held = new HeldStatements(jdbc(), new WriteBatching() {
            @Override
            public boolean holding() {
                return true;
            }

            @Override
            public void failed(RuntimeException failure) {
                failures.add(failure);
            }
        }, channel);
        jdbc().update("INSERT INTO held_test (k, v) VALUES ('taken', 0)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TransactionTemplate(transactions).executeWithoutResult(status -> {
            held.run("a", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"a", 1}, "a:1");
            held.run("taken", "INSERT INTO held_test (k, v) VALUES (?, ?)", new Object[] {"taken", 1}, "taken:1");
        })).isInstanceOf(RuntimeException.class);
        assertThat(failures).hasSize(1);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM held_test", Long.class)).as("rolled back but for the row before").isOne();
    }

    private static WriteBatching holding(boolean holding) {
        return new WriteBatching() {
            @Override
            public boolean holding() {
                return holding;
            }

            @Override
            public void failed(RuntimeException failure) {
            }
        };
    }

    private void listen(Connection listener) throws Exception {
        try (Statement statement = listener.createStatement()) {
            statement.execute("LISTEN " + channel);
        }
    }

    /** The payloads of {@code count} notifications (waiting at most 10 s for them), then any that came besides. */
    private static List<String> notifications(Connection listener, int count) throws Exception {
        List<String> payloads = new ArrayList<>();
        long giveUp = System.nanoTime() + 10_000_000_000L;
        while (payloads.size() < count && System.nanoTime() < giveUp) {
            PGNotification[] arrived = listener.unwrap(PGConnection.class).getNotifications(200);
            if (arrived != null) {
                Arrays.stream(arrived).map(PGNotification::getParameter).forEach(payloads::add);
            }
        }
        PGNotification[] more = listener.unwrap(PGConnection.class).getNotifications(200);
        if (more != null) {
            Arrays.stream(more).map(PGNotification::getParameter).forEach(payloads::add);
        }
        return payloads;
    }
}
