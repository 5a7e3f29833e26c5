package org.agentplatform.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A projection's statements, held until its processor's transaction commits and then sent together: a batch of events
 * costs a few round trips instead of one or two per event, and one notification per channel instead of one per event.
 * Statements of one key (a task, a conversation) run in the order they were given; statements of different keys are
 * independent, so the n-th statement of every key goes in one round (the statements of a round with the same text as
 * one JDBC batch, which the driver sends in one go), then the (n+1)-th. A held statement must return no rows.
 * <p>
 * When {@link WriteBatching} says not to hold (the dead-letter queue isolates a failing event), or outside a
 * transaction, each statement and its notification run at once; a transaction that began holding holds to its end
 * (isolation asked for meanwhile comes with the retry, should the commit fail). A held statement that fails at the commit fails the
 * commit: the batch is handled again, event by event ({@link WriteBatching#failed}).
 * <p>
 * A {@link Foldable} statement held right after another of its key may fold into it ({@link Foldable#fold}): two changes of one
 * row sent as one statement, one row version written instead of two.
 */
public final class HeldStatements {

    private final JdbcTemplate jdbc;
    private final WriteBatching batching;
    private final String channel;

    /** Statements held in one transaction, and the last notification of each key. */
    private final class Held implements TransactionSynchronization {

        private final List<Statement> statements = new ArrayList<>();
        private final Map<Object, String> notifications = new LinkedHashMap<>();
        /** Where the last statement of each key is in {@link #statements}. */
        private final Map<Object, Integer> lastOfKey = new HashMap<>();

        @Override
        public void beforeCommit(boolean readOnly) {
            try {
                send(this);
            } catch (RuntimeException failure) {
                batching.failed(failure);
                throw failure;
            }
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(HeldStatements.this);
        }
    }

    /** A held statement: its text and arguments, or a foldable one, whose text is made once it is sent. */
    private record Statement(Object key, String sql, Object[] arguments, Foldable foldable) {

        String text() {
            return foldable != null ? foldable.sql() : sql;
        }

        Object[] values() {
            return foldable != null ? foldable.arguments() : arguments;
        }
    }

    /** A statement that may take in the next statement of its key, so that both are sent as one. */
    public interface Foldable {

        /** This statement and {@code next} (given after it, for the same key) as one statement; null when they do not fold. */
        Foldable fold(Foldable next);

        String sql();

        Object[] arguments();
    }

    /** {@code channel}: where each key's notification goes ({@code pg_notify}), its payload given with the statement. */
    public HeldStatements(JdbcTemplate jdbc, WriteBatching batching, String channel) {
        this.jdbc = jdbc;
        this.batching = batching;
        this.channel = channel;
    }

    /** Runs {@code sql} for {@code key} now or at the commit, and then notifies {@code payload} (the key's last one wins). */
    public void run(Object key, String sql, Object[] arguments, String payload) {
        hold(key, sql, arguments, null, payload);
    }

    /**
     * As {@link #run(Object, String, Object[], String)}; held right after a foldable statement of the same key, the two are folded
     * into one when they fold.
     */
    public void run(Object key, Foldable statement, String payload) {
        hold(key, null, null, statement, payload);
    }

    private void hold(Object key, String sql, Object[] arguments, Foldable foldable, String payload) {
        boolean inTransaction = TransactionSynchronizationManager.isSynchronizationActive();
        Held held = inTransaction ? (Held) TransactionSynchronizationManager.getResource(this) : null;
        // a transaction that began holding goes on holding: a statement run now would overtake the held ones of its key
        if (held == null && (!inTransaction || !batching.holding())) {
            Statement now = new Statement(key, sql, arguments, foldable);
            jdbc.update(now.text(), now.values());
            jdbc.query("SELECT pg_notify(?, ?)", row -> null, channel, payload);
            return;
        }
        if (held == null) {
            held = new Held();
            TransactionSynchronizationManager.bindResource(this, held);
            TransactionSynchronizationManager.registerSynchronization(held);
        }
        Integer previous = held.lastOfKey.get(key);
        Foldable folded = foldable == null || previous == null || held.statements.get(previous).foldable() == null ? null
                : held.statements.get(previous).foldable().fold(foldable);
        if (folded != null) {
            held.statements.set(previous, new Statement(key, null, null, folded));
        } else {
            held.lastOfKey.put(key, held.statements.size());
            held.statements.add(new Statement(key, sql, arguments, foldable));
        }
        held.notifications.put(key, payload);
    }

    private void send(Held held) {
        Map<Object, Integer> given = new HashMap<>();
        TreeMap<Integer, Map<String, List<Object[]>>> rounds = new TreeMap<>();
        for (Statement statement : held.statements) {
            int round = given.merge(statement.key(), 1, Integer::sum) - 1;
            rounds.computeIfAbsent(round, any -> new LinkedHashMap<>())
                    .computeIfAbsent(statement.text(), any -> new ArrayList<>()).add(statement.values());
        }
        held.statements.clear();
        held.lastOfKey.clear();
        rounds.values().forEach(round -> round.forEach((sql, arguments) -> {
            if (arguments.size() == 1) {
                jdbc.update(sql, arguments.getFirst());
            } else {
                jdbc.batchUpdate(sql, arguments);
            }
        }));
        if (!held.notifications.isEmpty()) {
            jdbc.query("SELECT count(pg_notify(?, payload)) FROM unnest(?::text[]) AS payload", row -> null, channel,
                    held.notifications.values().toArray(String[]::new));
            held.notifications.clear();
        }
    }
}
