package org.agentplatform.query.task;

import java.util.Optional;
import org.agentplatform.kernel.task.TaskId;

/**
 * Port: a task as its events in the store make it, folded by the task projection itself (blocking), for a read the read
 * model has not caught up with: a task accepted a moment ago is never "not found" however far its projection lags.
 */
@FunctionalInterface
public interface StoredTasks {

    /** Empty for a task the store does not hold. */
    Optional<TaskRecord> fold(TaskId taskId);
}
