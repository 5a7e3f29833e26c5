package org.agentplatform.kernel.task;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Task} aggregate. The caller's commands name {@code requestedBy} (another owner's
 * task is "not found"); the runtime's answers name the {@code turn} they answer, so a late answer to a
 * turn that was canceled, timed out or superseded is refused.
 */
public sealed interface TaskCommand {

    TaskId taskId();

    /**
     * @param deadline     when the task times out if it has not finished; null for none
     * @param runtimeEpoch the epoch at which the creator saw the instance serve: the task starts there at once
     *                     (its runtime refuses a turn of an epoch that has passed); null to ask the instance first
     */
    record CreateTask(
            @TargetAggregateIdentifier TaskId taskId,
            OwnerId ownerId,
            AgentId agentId,
            InstanceId instanceId,
            String contextId,
            TaskMessage message,
            Instant deadline,
            TaskOrigin origin,
            Long runtimeEpoch) implements TaskCommand {
    }

    /** The instance serves: the first turn goes to its runtime at {@code runtimeEpoch}. */
    record StartTask(@TargetAggregateIdentifier TaskId taskId, long runtimeEpoch) implements TaskCommand {
    }

    /** A runtime worker began the turn (see {@link TurnBegan}). */
    record BeginTaskTurn(@TargetAggregateIdentifier TaskId taskId, int turn, TurnBegan began) implements TaskCommand {
    }

    /**
     * The runtime's outcomes of a turn carry when it began ({@code began}; null when it never began, or the runtime told
     * already): a turn that ends quickly is told begun and ended in one command, not two.
     */
    record CompleteTask(@TargetAggregateIdentifier TaskId taskId, int turn, TaskMessage reply, TurnBegan began) implements TaskCommand {
    }

    record RequestTaskInput(@TargetAggregateIdentifier TaskId taskId, int turn, TaskMessage prompt, TurnBegan began) implements TaskCommand {
    }

    record RequestTaskAuth(@TargetAggregateIdentifier TaskId taskId, int turn, TaskMessage prompt, TurnBegan began) implements TaskCommand {
    }

    /** @param reply the agent's text when it reported the failure itself; null otherwise */
    record FailTask(@TargetAggregateIdentifier TaskId taskId, int turn, TaskFailure failure, TaskMessage reply, TurnBegan began)
            implements TaskCommand {
    }

    record RejectTask(@TargetAggregateIdentifier TaskId taskId, int turn, String reason) implements TaskCommand {
    }

    /** The caller answers a task that waits for input or authorization; the next turn starts. */
    record ContinueTask(@TargetAggregateIdentifier TaskId taskId, OwnerId requestedBy, TaskMessage message) implements TaskCommand {
    }

    record CancelTask(@TargetAggregateIdentifier TaskId taskId, OwnerId requestedBy, String reason) implements TaskCommand {
    }
}
