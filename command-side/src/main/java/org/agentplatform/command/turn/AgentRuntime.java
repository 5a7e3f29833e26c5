package org.agentplatform.command.task;

import org.agentplatform.kernel.task.TaskId;

/**
 * Port: the agents of an instance's runtime, to which task turns are delivered. A turn runs at least
 * once (a turn started again, after a crash, runs again; what it already streamed is not repeated) and
 * its outcome is reported to {@link TurnReports}.
 */
public interface AgentRuntime {

    void startTurn(TaskTurn turn);

    /** Stops the task's running turn, if there is one; an outcome that still comes is refused by the task. */
    void stopTurn(TaskId task);
}
