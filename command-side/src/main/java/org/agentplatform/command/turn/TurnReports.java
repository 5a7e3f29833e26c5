package org.agentplatform.command.turn;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.turn.TurnOutcome.AgentFailed;
import org.agentplatform.command.turn.TurnOutcome.NeedsAuth;
import org.agentplatform.command.turn.TurnOutcome.NeedsInput;
import org.agentplatform.command.turn.TurnOutcome.Rejected;
import org.agentplatform.command.turn.TurnOutcome.Replied;
import org.agentplatform.command.turn.TurnOutcome.Unavailable;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.conversation.ConversationCommand.EndTurn;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.task.TaskCommand.BeginTaskTurn;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.agentplatform.kernel.task.TaskCommand.FailTask;
import org.agentplatform.kernel.task.TaskCommand.RejectTask;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskAuth;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskInput;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.kernel.task.TurnBegan;
import org.axonframework.commandhandling.gateway.CommandGateway;

/** Where runtimes report how a turn ended: each outcome becomes the command of the task or conversation for that turn. */
public final class TurnReports {

    /** The actor of what a runtime reports. */
    public static final String RUNTIME = "runtime";

    private final CommandGateway commands;

    public TurnReports(CommandGateway commands) {
        this.commands = commands;
    }

    /**
     * Completes once the task or conversation has taken the outcome or refused it (the turn was over: canceled,
     * timed out, or its outcome reported already); fails only when it is unknown whether it took it, so the runtime can
     * report again. A refusal is an answer, not a failure: the command goes with a callback, since Axon's future-answering
     * {@code send} logs every refusal as a warning (one per task a recovery reports again).
     */
    public CompletableFuture<Void> report(AgentTurn.Kind kind, UUID channel, int turn, TurnOutcome outcome, TurnBegan began) {
        return send(kind, switch (kind) {
            case TASK -> taskCommand(new TaskId(channel), turn, outcome, began);
            case CONVERSATION -> conversationCommand(new ConversationId(channel), turn, outcome);
        });
    }

    /**
     * A worker began the task's turn, which does not end at once (one that does tells it with its outcome): the task is
     * running from now on. Completes as {@link #report} does. A conversation's turn runs from its start; nothing to tell.
     */
    public CompletableFuture<Void> begin(AgentTurn.Kind kind, UUID channel, int turn, TurnBegan began) {
        return switch (kind) {
            case TASK -> send(kind, new BeginTaskTurn(new TaskId(channel), turn, began));
            case CONVERSATION -> CompletableFuture.completedFuture(null);
        };
    }

    private CompletableFuture<Void> send(AgentTurn.Kind kind, Object command) {
        CompletableFuture<Void> taken = new CompletableFuture<>();
        commands.send(ProcessCommands.withContext(command, AuditMetadata.byProcess(RUNTIME)), (message, result) -> {
            if (result.isExceptional() && !(ProcessCommands.unwrap(result.exceptionResult()) instanceof CommandRefused)) {
                taken.completeExceptionally(new IllegalStateException("The " + kind.wireName() + " did not take the turn's outcome",
                        result.exceptionResult()));
            } else {
                taken.complete(null);
            }
        });
        return taken;
    }

    private static Object taskCommand(TaskId task, int turn, TurnOutcome outcome, TurnBegan began) {
        return switch (outcome) {
            case Replied replied -> new CompleteTask(task, turn, TaskMessage.agent(replied.text()), began);
            case NeedsInput input -> new RequestTaskInput(task, turn, TaskMessage.agent(input.text()), began);
            case NeedsAuth auth -> new RequestTaskAuth(task, turn, TaskMessage.agent(auth.text()), began);
            case AgentFailed failed -> new FailTask(task, turn, new TaskFailure(TaskFailure.AGENT_REPLY_ERROR, failed.message()),
                    TaskMessage.agent(failed.text()), began);
            case Rejected rejected -> new RejectTask(task, turn, rejected.reason());
            case Unavailable unavailable -> new FailTask(task, turn, new TaskFailure(unavailable.code(), unavailable.message()), null,
                    began);
        };
    }

    private static EndTurn conversationCommand(ConversationId conversation, int turn, TurnOutcome outcome) {
        return switch (outcome) {
            case Replied replied -> new EndTurn(conversation, turn, TaskStatus.COMPLETED, TaskMessage.agent(replied.text()), null);
            case NeedsInput input -> new EndTurn(conversation, turn, TaskStatus.INPUT_REQUIRED, TaskMessage.agent(input.text()), null);
            case NeedsAuth auth -> new EndTurn(conversation, turn, TaskStatus.AUTH_REQUIRED, TaskMessage.agent(auth.text()), null);
            case AgentFailed failed -> new EndTurn(conversation, turn, TaskStatus.FAILED, TaskMessage.agent(failed.text()),
                    new TaskFailure(TaskFailure.AGENT_REPLY_ERROR, failed.message()));
            case Rejected rejected -> new EndTurn(conversation, turn, TaskStatus.REJECTED, TaskMessage.agent(rejected.reason()), null);
            case Unavailable unavailable -> new EndTurn(conversation, turn, TaskStatus.FAILED, null,
                    new TaskFailure(unavailable.code(), unavailable.message()));
        };
    }
}
