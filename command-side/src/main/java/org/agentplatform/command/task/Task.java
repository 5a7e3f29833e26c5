package org.agentplatform.command.task;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.time.Instant;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskCommand.BeginTaskTurn;
import org.agentplatform.kernel.task.TaskCommand.CancelTask;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.agentplatform.kernel.task.TaskCommand.ContinueTask;
import org.agentplatform.kernel.task.TaskCommand.CreateTask;
import org.agentplatform.kernel.task.TaskCommand.FailTask;
import org.agentplatform.kernel.task.TaskCommand.RejectTask;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskAuth;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskInput;
import org.agentplatform.kernel.task.TaskCommand.StartTask;
import org.agentplatform.kernel.task.TaskEvent.TaskAuthRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskCanceled;
import org.agentplatform.kernel.task.TaskEvent.TaskCompleted;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskFailed;
import org.agentplatform.kernel.task.TaskEvent.TaskInputRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskRejected;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTimedOut;
import org.agentplatform.kernel.task.TaskEvent.TaskTurnBegan;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.kernel.task.TurnBegan;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;
import org.axonframework.modelling.command.CreationPolicy;

/**
 * An agent task (see {@link TaskStatus}). Each runtime turn is numbered: the runtime's answer names its
 * turn, so an answer that arrives after a cancel, a timeout or the caller's continue is refused rather
 * than applied to the wrong turn. A deadline, when the caller gave one, times the task out.
 */
class Task {

    static final String DEADLINE = "task-deadline";

    private TaskRef ref;
    private TaskMessage firstMessage;
    private TaskOrigin origin;
    private TaskStatus status;
    private int turn;
    private Instant createdAt;

    protected Task() {
        // for event sourcing
    }

    /** The id as a string: deadline scopes are serialized, and a string survives that where a record would not. */
    @AggregateIdentifier
    String aggregateIdentifier() {
        return ref == null ? null : ref.taskId().toString();
    }

    /**
     * A task created at the runtime epoch its creator saw the instance serve at hands its first turn over at once, in
     * the same command: a second command (and its transaction) per task would only repeat what creation knew. It stays
     * queued until a worker begins the turn ({@link BeginTaskTurn}, or the turn's outcome). One created without an epoch
     * waits for its instance to serve ({@link StartTask}).
     *
     * <p>Answers the instant its creation is stored at: the task's {@code created_at} in every read, which the create's
     * answer shows too. A creating handler that is a method, not a constructor, sees its events applied at once.
     */
    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.ALWAYS)
    Instant handle(CreateTask command, DeadlineManager deadlines) {
        TaskRef created = new TaskRef(command.taskId(), command.ownerId(), command.agentId(), command.instanceId(), command.contextId());
        apply(new TaskCreated(created, command.message(), command.deadline(), command.origin(), command.runtimeEpoch()));
        // the store keeps Axon's text form of the instant (milliseconds): what every later read of it sees
        Instant storedAt = DateTimeUtils.parseInstant(DateTimeUtils.formatInstant(createdAt));
        if (command.runtimeEpoch() != null) {
            apply(new TaskStarted(created, 1, command.runtimeEpoch(), command.message(), command.origin(), true));
        }
        if (command.deadline() != null) {
            deadlines.schedule(command.deadline(), DEADLINE);
        }
        return storedAt;
    }

    /** Starts turn 1, once: a task whose turn was handed over is queued too while the turn waits for a worker. */
    @CommandHandler
    void handle(StartTask command) {
        if (status != TaskStatus.QUEUED || turn != 0) {
            throw refusal("start");
        }
        apply(new TaskStarted(ref, 1, command.runtimeEpoch(), firstMessage, origin, true));
    }

    /**
     * A worker began the current turn: the task is running. Told again, or late (the turn's outcome, carrying when it began,
     * came first; the task was canceled meanwhile), it changes nothing and is not refused: there is nothing to correct.
     */
    @CommandHandler
    void handle(BeginTaskTurn command) {
        began(command.turn(), command.began());
    }

    @CommandHandler
    void handle(CompleteTask command) {
        began(command.turn(), command.began());
        requireTurn(command.turn(), TaskStatus.COMPLETED, "complete");
        apply(new TaskCompleted(ref, turn, command.reply()));
    }

    @CommandHandler
    void handle(RequestTaskInput command) {
        began(command.turn(), command.began());
        requireTurn(command.turn(), TaskStatus.INPUT_REQUIRED, "ask for input on");
        apply(new TaskInputRequired(ref, turn, command.prompt()));
    }

    @CommandHandler
    void handle(RequestTaskAuth command) {
        began(command.turn(), command.began());
        requireTurn(command.turn(), TaskStatus.AUTH_REQUIRED, "ask for authorization on");
        apply(new TaskAuthRequired(ref, turn, command.prompt()));
    }

    @CommandHandler
    void handle(FailTask command) {
        began(command.turn(), command.began());
        requireTurn(command.turn(), TaskStatus.FAILED, "fail");
        apply(new TaskFailed(ref, turn, command.failure(), command.reply()));
    }

    /** The current turn began, when it is that turn, it did ({@code began} not null), and the task waited for it. */
    private void began(int answered, TurnBegan began) {
        if (began != null && answered == turn && turn > 0 && status == TaskStatus.QUEUED) {
            apply(new TaskTurnBegan(ref, turn, began.window(), began.at()));
        }
    }

    @CommandHandler
    void handle(RejectTask command) {
        requireTurn(command.turn(), TaskStatus.REJECTED, "reject");
        apply(new TaskRejected(ref, turn, command.reason()));
    }

    /** Answers the task's version after the change, so the caller can read its own write. */
    @CommandHandler
    Long handle(ContinueTask command) {
        requireOwner(command.requestedBy());
        if (!status.awaitsCaller()) {
            throw CommandRefused.conflict("Task " + ref.taskId() + " is " + status.wireName()
                    + "; only a task in input_required or auth_required can be continued");
        }
        apply(new TaskContinued(ref, turn + 1, command.message(), true));
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    Long handle(CancelTask command) {
        requireOwner(command.requestedBy());
        if (status.isTerminal()) {
            throw CommandRefused.conflict("Task " + ref.taskId() + " is already " + status.wireName()
                    + "; only a task that has not finished can be canceled");
        }
        apply(new TaskCanceled(ref, status, command.reason()));
        return AggregateLifecycle.getVersion();
    }

    @DeadlineHandler(deadlineName = DEADLINE)
    void deadlinePassed() {
        if (!status.isTerminal()) {
            apply(new TaskTimedOut(ref, status, null));
        }
    }

    private void requireOwner(OwnerId requestedBy) {
        if (!ref.ownerId().equals(requestedBy)) {
            throw CommandRefused.agentNotFound("No task " + ref.taskId());
        }
    }

    /** The runtime answers the current turn of a task that is working on it (or, for a refusal, still queued). */
    private void requireTurn(int answered, TaskStatus next, String action) {
        if (answered != turn) {
            throw CommandRefused.conflict("Cannot " + action + " task " + ref.taskId() + " for turn " + answered
                    + "; it is at turn " + turn);
        }
        requireTransition(next, action);
    }

    private void requireTransition(TaskStatus next, String action) {
        if (!status.canBecome(next)) {
            throw refusal(action);
        }
    }

    private CommandRefused refusal(String action) {
        return CommandRefused.conflict("Cannot " + action + " task " + ref.taskId() + " while it is " + status.wireName());
    }

    @EventSourcingHandler
    void on(TaskEvent event, @Timestamp Instant at) {
        switch (event) {
            case TaskCreated created -> {
                ref = created.task();
                firstMessage = created.message();
                origin = created.origin();
                createdAt = at;
            }
            case TaskStarted started -> turn = started.turn();
            case TaskContinued continued -> turn = continued.turn();
            default -> {
                // only the status changes
            }
        }
        status = event.status();
    }
}
