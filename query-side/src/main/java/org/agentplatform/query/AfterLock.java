package org.agentplatform.query;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.RowMapper;

/**
 * A statement run after a lock's statement in one round trip: the two go in one message, which PostgreSQL runs as one
 * transaction (its own when none is open here), holding a transaction-scoped lock to its end; and the statement, a command
 * after the lock, sees every commit made before the lock was granted (read committed: each command takes a new snapshot).
 * The chunk writer runs under its channel's lock this way, the local runtime records a turn under its fair share's.
 */
public final class AfterLock {

    private AfterLock() {
    }

    /**
     * The one row of {@code statement}, run after {@code lock} (whatever rows it returns); the lock's arguments first in
     * {@code arguments}, then the statement's.
     */
    public static <T> T oneRow(JdbcTemplate jdbc, String lock, String statement, List<Object> arguments, RowMapper<T> mapper) {
        List<T> rows = rows(jdbc, lock, statement, arguments, mapper);
        if (rows.isEmpty()) {
            throw new IllegalStateException("The statement after the lock returned no rows");
        }
        return rows.getFirst();
    }

    /** The rows of {@code statement}, run after {@code lock} (whatever rows it returns); arguments as {@link #oneRow}. */
    public static <T> List<T> rows(JdbcTemplate jdbc, String lock, String statement, List<Object> arguments, RowMapper<T> mapper) {
        return jdbc.execute(lock + "; " + statement, (PreparedStatementCallback<List<T>>) prepared -> {
            new ArgumentPreparedStatementSetter(arguments.toArray()).setValues(prepared);
            prepared.execute();
            if (!prepared.getMoreResults()) {
                throw new IllegalStateException("The statement after the lock returned no result");
            }
            List<T> rows = new ArrayList<>();
            try (ResultSet result = prepared.getResultSet()) {
                while (result.next()) {
                    rows.add(mapper.mapRow(result, rows.size()));
                }
            }
            return rows;
        });
    }

    /** {@code first} and then {@code rest}, as one argument list. */
    public static List<Object> arguments(List<Object> first, List<Object> rest) {
        List<Object> all = new ArrayList<>(first.size() + rest.size());
        all.addAll(first);
        all.addAll(rest);
        return all;
    }
}
