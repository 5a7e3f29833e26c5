package org.agentplatform.command.turn;

import java.util.function.UnaryOperator;

/** How an agent's turn ended, as its runtime reports it. */
public sealed interface TurnOutcome {

    /**
     * The outcome with {@code change} applied to the agent's own text, the answer its caller reads (how a runtime seals
     * it for the store, {@link org.agentplatform.kernel.privacy.PersonalContent}); reasons and messages of the platform
     * stay as they are.
     */
    default TurnOutcome personal(UnaryOperator<String> change) {
        return switch (this) {
            case Replied replied -> new Replied(change.apply(replied.text()));
            case NeedsInput input -> new NeedsInput(change.apply(input.text()));
            case NeedsAuth auth -> new NeedsAuth(change.apply(auth.text()));
            case AgentFailed failed -> new AgentFailed(change.apply(failed.text()), failed.message());
            case Rejected rejected -> rejected;
            case Unavailable unavailable -> unavailable;
        };
    }

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
