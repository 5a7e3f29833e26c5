package org.agentplatform.query.task;

import java.util.Set;
import org.agentplatform.kernel.task.TaskId;

/**
 * An owner's backlog as the task read model shows it ({@link TaskReads#backlog}).
 *
 * @param unfinished   tasks queued or running
 * @param endedSince   tasks settled (ended, or waiting for the caller) after the change asked about
 * @param latestChange the owner's latest change offset (0 when it has no task)
 * @param shown        those of the tasks asked about that the read model shows
 */
public record TaskBacklog(long unfinished, long endedSince, long latestChange, Set<TaskId> shown) {
}
