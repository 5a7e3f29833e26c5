package org.agentplatform.command.task;

import java.util.concurrent.CompletableFuture;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.task.TurnOutcome.AgentFailed;
import org.agentplatform.command.task.TurnOutcome.NeedsAuth;
import org.agentplatform.command.task.TurnOutcome.NeedsInput;
import org.agentplatform.command.task.TurnOutcome.Rejected;
import org.agentplatform.command.task.TurnOutcome.Replied;
import org.agentplatform.command.task.TurnOutcome.Unavailable;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.agentplatform.kernel.task.TaskCommand.FailTask;
import org.agentplatform.kernel.task.TaskCommand.RejectTask;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskAuth;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskInput;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;

/** Where runtimes report how a turn ended: each outcome becomes the task's command for that turn. */
public final class TurnReports {

    private final CommandGateway commands;

    public TurnReports(CommandGateway commands) {
        this.commands = commands;
    }

    /**
     * Completes once the task has taken the outcome or refused it (the turn was over: canceled, timed
     * out); fails only when it is unknown whether the task took it, so the runtime can report again.
     */
    public CompletableFuture<Void> report(TaskId task, int turn, TurnOutcome outcome) {
        Object command = switch (outcome) {
            case Replied replied -> new CompleteTask(task, turn, TaskMessage.agent(replied.text()));
            case NeedsInput input -> new RequestTaskInput(task, turn, TaskMessage.agent(input.text()));
            case NeedsAuth auth -> new RequestTaskAuth(task, turn, TaskMessage.agent(auth.text()));
            case AgentFailed failed -> new FailTask(task, turn, new TaskFailure(TaskFailure.AGENT_REPLY_ERROR, failed.message()),
                    TaskMessage.agent(failed.text()));
            case Rejected rejected -> new RejectTask(task, turn, rejected.reason());
            case Unavailable unavailable -> new FailTask(task, turn, new TaskFailure(unavailable.code(), unavailable.message()), null);
        };
        return commands.send(command).handle((result, failure) -> {
            if (failure != null && !(ProcessCommands.unwrap(failure) instanceof CommandRefused)) {
                throw new IllegalStateException("The task did not take the turn's outcome", failure);
            }
            return null;
        });
    }
}
