package org.agentplatform.query.task;

import java.util.UUID;
import org.agentplatform.kernel.task.TaskId;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A task's lock in PostgreSQL (a transaction-scoped advisory lock on its id): the chunk writer and the
 * projection of the statuses that end a turn from outside take it, so a turn's chunks and those statuses
 * commit one after the other, never interleaved.
 */
final class TaskLocks {

    private TaskLocks() {
    }

    /** Takes the lock until the current transaction ends. */
    static void lock(JdbcTemplate jdbc, TaskId task) {
        jdbc.query("SELECT pg_advisory_xact_lock(?)", row -> null, key(task.value()));
    }

    private static long key(UUID id) {
        return id.getMostSignificantBits() ^ id.getLeastSignificantBits();
    }
}
