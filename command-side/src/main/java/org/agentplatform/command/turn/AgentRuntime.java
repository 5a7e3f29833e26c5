package org.agentplatform.command.turn;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Port: the agents of an instance's runtime, to which the turns of tasks and conversations are delivered. A
 * turn runs at least once (a turn started again, after a crash, runs again; what it already streamed is not
 * repeated) and its outcome is reported to {@link TurnReports}. {@link #startTurn} takes the turn in and returns: when it
 * runs is the runtime's to decide (the local one keeps its turns waiting in PostgreSQL and runs them in a fair order).
 */
public interface AgentRuntime {

    void startTurn(AgentTurn turn);

    /**
     * Takes several turns in together (those a dispatcher's batch of events started, in the order they were started): one
     * call instead of one per turn; a turn known already is left as it is, as {@link #startTurn} would.
     */
    default void startTurns(List<AgentTurn> turns) {
        turns.forEach(this::startTurn);
    }

    /**
     * Stops whatever turn of a task or conversation ({@code channel}) runs, if one does: the channel has ended. An
     * outcome that still comes is refused.
     */
    void stopTurns(UUID channel);

    /**
     * Stops turn {@code turn} of a task or conversation if it still runs; a later turn of the same channel goes on (the
     * stop may reach the runtime after the next turn started there).
     */
    void stopTurn(UUID channel, int turn);

    /**
     * Of these started turns, those the runtime has no record of: their hand-off was lost (a crash between the dispatcher's
     * checkpoint and the hand-off), so they are handed to it again. A runtime that keeps no record knows them all.
     */
    default Set<TurnStart> unknown(Collection<TurnStart> turns) {
        return Set.of();
    }

    /** Takes over the runtime's own turns whose worker went silent, and reports outcomes recorded but not taken (the sweep calls this). */
    default void recoverTurns() {
    }
}
