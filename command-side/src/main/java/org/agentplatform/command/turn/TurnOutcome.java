package org.agentplatform.command.turn;

/** How an agent's turn ended, as its runtime reports it. */
public sealed interface TurnOutcome {

    /** The agent answered: the task (or the conversation's turn) is completed. */
    record Replied(String text) implements TurnOutcome {
    }

    /** The agent needs more from the caller. */
    record NeedsInput(String text) implements TurnOutcome {
    }

    /** The agent needs the caller to authorize something first. */
    record NeedsAuth(String text) implements TurnOutcome {
    }

    /** The agent itself reported a failure (in band): its text is the answer, the task failed. */
    record AgentFailed(String text, String message) implements TurnOutcome {
    }

    /** The agent declined the task. */
    record Rejected(String reason) implements TurnOutcome {
    }

    /**
     * The platform could not get an answer: {@code code} is the contract code a blocking call answers
     * ({@code agent_offline}, {@code agent_service_unavailable}, {@code agent_not_found}, {@code internal_error}).
     */
    record Unavailable(String code, String message) implements TurnOutcome {
    }
}
