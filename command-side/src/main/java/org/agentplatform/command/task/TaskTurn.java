package org.agentplatform.command.task;

import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskRef;

/** One turn of a task for the agent's runtime: the caller's message, fenced by the runtime epoch it was started at. */
public record TaskTurn(TaskRef task, int turn, long runtimeEpoch, TaskMessage message) {
}
