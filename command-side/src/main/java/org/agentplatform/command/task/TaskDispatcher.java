package org.agentplatform.command.task;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.agentplatform.command.OrderedWork;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.instance.ReadinessCheck;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.command.turn.BatchHandOff;
import org.agentplatform.command.turn.RuntimeHandOff;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.instance.InstanceEvent.RuntimeStarted;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskCommand.FailTask;
import org.agentplatform.kernel.task.TaskCommand.StartTask;
import org.agentplatform.kernel.task.TaskEvent.TaskCanceled;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTimedOut;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskRef;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * Moves tasks to their agent's runtime: a task starts with its creation at the runtime epoch its creator saw
 * the instance serve at (the runtime refuses a turn of an epoch that has passed, failing the task
 * {@code agent_offline}), or, created without one, once its instance serves; each started or continued turn
 * goes to the runtime; a canceled or timed-out task's turn is stopped. Started turns are handed on as the processor's
 * batch commits (one short write for the batch), the rest off its thread; what a crash loses there is swept
 * ({@link #dispatchQueuedOn}) and turns are recovered by the runtime. A stop reaches the runtime after the turns it stops
 * ({@link #stopAfterHandOff}): before them, it found no turn to stop, and the turn then ran for a task already over.
 */
@ProcessingGroup(TaskDispatcher.GROUP)
public class TaskDispatcher {

    public static final String GROUP = "task-dispatch";
    static final String AGENT_OFFLINE = "agent_offline";

    private final CommandGateway commands;
    private final AgentRuntime runtime;
    private final QueuedTasks queued;
    private final Executor executor;
    private final BatchHandOff started;
    /** A task's continued turns and its stop, in that order. */
    private final OrderedWork<TaskId> ordered;

    public TaskDispatcher(CommandGateway commands, AgentRuntime runtime, QueuedTasks queued, Executor executor) {
        this.commands = commands;
        this.runtime = runtime;
        this.started = new BatchHandOff(runtime);
        this.queued = queued;
        this.executor = ProcessCommands.carrying(executor);
        this.ordered = new OrderedWork<>(executor);
    }

    /**
     * The sequence the dispatcher takes its events in: an owner's task events in the order they were stored, on one
     * segment, so that its turns are handed over, and wait for a worker, in the order its tasks were created (on two
     * segments by task, a later task's turn could be handed over, and claimed, before an earlier one's); null for others.
     * The owner's id as a {@link java.util.UUID}, whose hash (and so the segment it lands on) is specified, the same on every
     * node and JDK.
     */
    public static Object sequence(Object payload) {
        return payload instanceof TaskEvent task ? task.task().ownerId().value() : null;
    }

    /** A task created at an epoch started with its creation ({@link TaskStarted} follows); one without waits for its instance. */
    @EventHandler
    void on(TaskCreated event) {
        if (event.runtimeEpoch() == null) {
            executor.execute(() -> dispatch(event.taskId(), event.task().instanceId()));
        }
    }

    @EventHandler
    void on(RuntimeStarted event) {
        executor.execute(() -> dispatchQueuedOn(event.instanceId()));
    }

    /**
     * The started turn goes to the runtime with the others of the processor's batch as the batch commits ({@link BatchHandOff}:
     * one short write for the batch): the dispatcher moves on no faster than the runtime takes its turns in, so a backlog
     * waits in the event store or the runtime, not in a queue in memory, and the recovery never sees a turn whose token has
     * passed before the runtime has it. A hand-off that fails is the recovery's ({@code StartedTurns}): the stream goes on.
     */
    @EventHandler
    void on(TaskStarted event, @MetaDataValue(GlobalIndex.KEY) Long globalIndex) {
        started.add(AgentTurn.of(event.task(), event.turn(), event.runtimeEpoch(), globalIndex, event.message(), event.interactive()));
    }

    /** The caller's answer goes to the runtime at its current epoch; an instance that stopped meanwhile fails the task. */
    @EventHandler
    void on(TaskContinued event, @MetaDataValue(GlobalIndex.KEY) Long globalIndex) {
        ordered.run(event.taskId(), () -> handOff(event.task(), event.turn(), globalIndex, event.message(), false));
    }

    /**
     * Hands turn {@code turn} (started by the event at {@code globalIndex}) to the runtime at the epoch its instance serves
     * at now, or fails it {@code agent_offline}: a continued turn, and a started one whose hand-off a crash lost.
     */
    public void handOff(TaskRef task, int turn, long globalIndex, TaskMessage message, boolean interactive) {
        RuntimeHandOff.handOff(commands, runtime, task.instanceId(), epoch -> AgentTurn.of(task, turn, epoch, globalIndex, message, interactive),
                reason -> offline(task.taskId(), turn, reason));
    }

    /**
     * Runs {@code work} in the task's lane, after the continued turns and stops handed on before it and before those handed on
     * after it: the recovery of a lost hand-off checks there that the turn still runs and hands it over in one piece, so a
     * stop cannot fall between the check and the hand-off (it would find no turn, and the turn then run for a task over).
     */
    public <T> CompletableFuture<T> inOrder(TaskId task, Supplier<T> work) {
        return ordered.call(task, work);
    }

    @EventHandler
    void on(TaskCanceled event) {
        stopAfterHandOff(event.taskId());
    }

    @EventHandler
    void on(TaskTimedOut event) {
        stopAfterHandOff(event.taskId());
    }

    /**
     * Stops the task's turns once the runtime has them: after the turns its batch started are handed over (as the batch
     * prepares its commit, {@link BatchHandOff}, which registered first) and after its continued turns handed to the pool.
     */
    private void stopAfterHandOff(TaskId task) {
        Runnable stop = ProcessCommands.carried(() -> runtime.stopTurns(task.value()));
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().root().onPrepareCommit(batch -> ordered.run(task, stop));
        } else {
            ordered.run(task, stop);
        }
    }

    /** Starts every queued task of an instance that serves (also what the sweeper calls). */
    public void dispatchQueuedOn(InstanceId instance) {
        queued.queuedOn(instance).forEach(task -> dispatch(task, instance));
    }

    /** Starts the task if its instance serves now; leaves it queued otherwise; fails it if the instance is gone. */
    public void dispatch(TaskId task, InstanceId instance) {
        ReadinessCheck check = ReadinessCheck.of(commands, instance);
        if (check.isGone()) {
            offline(task, 0, "The agent's instance is gone");
        } else if (check.readiness().isServing()) {
            ProcessCommands.send(commands, new StartTask(task, check.readiness().runtimeEpoch()));
        }
    }

    private void offline(TaskId task, int turn, String message) {
        ProcessCommands.send(commands, new FailTask(task, turn, new TaskFailure(AGENT_OFFLINE, message), null, null));
    }
}
