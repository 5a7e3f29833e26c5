package org.agentplatform.command.turn;

import java.util.UUID;

/**
 * Port: the agents of an instance's runtime, to which the turns of tasks and conversations are delivered. A
 * turn runs at least once (a turn started again, after a crash, runs again; what it already streamed is not
 * repeated) and its outcome is reported to {@link TurnReports}.
 */
public interface AgentRuntime {

    void startTurn(AgentTurn turn);

    /** Stops the running turn of a task or conversation ({@code channel}), if there is one; an outcome that still comes is refused. */
    void stopTurn(UUID channel);
}
