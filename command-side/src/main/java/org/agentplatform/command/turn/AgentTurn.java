package org.agentplatform.command.task;

import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskRef;

/**
 * One turn of a task for the agent's runtime: the caller's message, fenced by the runtime epoch it was
 * started at. {@code logWindow} is the global index of the event that started it: the turn's streamed
 * chunks take the task log's offsets after that event's rows.
 */
public record TaskTurn(TaskRef task, int turn, long runtimeEpoch, long logWindow, TaskMessage message) {
}
