package org.agentplatform.command.operation;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;
import org.agentplatform.command.OrderedWork;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.instance.ReadinessCheck;
import org.agentplatform.command.operation.RuntimeOutcome.Aborted;
import org.agentplatform.command.operation.RuntimeOutcome.Committed;
import org.agentplatform.command.operation.RuntimeOutcome.PartiallyApplied;
import org.agentplatform.command.operation.RuntimeOutcome.Refused;
import org.agentplatform.kernel.instance.InstanceEvent.RuntimeStarted;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.EffectState;
import org.agentplatform.kernel.operation.OperationCommand.CommitOperation;
import org.agentplatform.kernel.operation.OperationCommand.ConfirmOperationCancelled;
import org.agentplatform.kernel.operation.OperationCommand.FailOperation;
import org.agentplatform.kernel.operation.OperationCommand.StartOperation;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelRequested;
import org.agentplatform.kernel.operation.OperationEvent.OperationQueued;
import org.agentplatform.kernel.operation.OperationEvent.OperationStarted;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationStatus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves operations from the queue to the runtime and the runtime's answer back: a queued operation
 * starts once its instance runs (at the instance's runtime epoch, with an answer deadline); a started
 * one is sent to the runtime; a cancel of a running one is passed on. Work happens off the processor's
 * thread; what a crash loses there is recovered by {@link #dispatch} sweeps and the deadlines.
 *
 * <p>An operation's call and its cancel reach the runtime in that order ({@link OrderedWork}): handed to the pool side by
 * side, a cancel could be passed on before its call was, find no call to drop, and be lost (the call then ran to its
 * answer deadline: {@code outcome_unknown} instead of {@code cancelled}).
 */
@ProcessingGroup(OperationDispatcher.GROUP)
public class OperationDispatcher {

    public static final String GROUP = "operation-dispatch";
    private static final Logger log = LoggerFactory.getLogger(OperationDispatcher.class);

    private final CommandGateway commands;
    private final InstanceRuntime runtime;
    private final QueuedOperations queued;
    private final Executor executor;
    /** An operation's call and cancel, in that order. */
    private final OrderedWork<OperationId> ordered;
    private final Clock clock;
    private final Duration answerTimeout;

    public OperationDispatcher(CommandGateway commands, InstanceRuntime runtime, QueuedOperations queued, Executor executor,
            Clock clock, Duration answerTimeout) {
        this.commands = commands;
        this.runtime = runtime;
        this.queued = queued;
        this.executor = ProcessCommands.carrying(executor);
        this.ordered = new OrderedWork<>(executor);
        this.clock = clock;
        this.answerTimeout = answerTimeout;
    }

    @EventHandler
    void on(OperationQueued event) {
        executor.execute(() -> dispatch(event.operationId(), event.instanceId()));
    }

    @EventHandler
    void on(RuntimeStarted event) {
        executor.execute(() -> dispatchQueuedOn(event.instanceId()));
    }

    @EventHandler
    void on(OperationStarted event) {
        // the call's piece ends once the runtime has the call, not when it answers
        ordered.run(event.operationId(), () -> runtime
                .invoke(new RuntimeCall(event.instanceId(), event.ownerId(), event.runtimeEpoch(), event.operationId(),
                        event.method(), event.params()))
                .whenComplete((outcome, failure) -> {
                    if (failure != null) {
                        // the answer deadline will call the outcome unknown: nothing here says what happened
                        log.atWarn().addKeyValue("operation_id", event.operationId().toString()).setCause(failure)
                                .log("runtime call failed without an answer");
                    } else {
                        report(event.operationId(), outcome);
                    }
                }));
    }

    /**
     * A runtime that drops the call answers {@code Aborted} to the pending invoke, which confirms the cancel. Passed on once
     * the call was: a cancel that came first would find nothing to drop.
     */
    @EventHandler
    void on(OperationCancelRequested event) {
        if (event.status() == OperationStatus.RUNNING) {
            ordered.run(event.operationId(), () -> runtime.cancel(event.instanceId(), event.operationId()));
        }
    }

    /** Starts every queued operation of a running instance (also what the sweeper calls). */
    public void dispatchQueuedOn(InstanceId instance) {
        queued.queuedOn(instance).forEach(operation -> dispatch(operation, instance));
    }

    /** Starts the operation if its instance serves now; leaves it queued otherwise; fails it if the instance is gone. */
    public void dispatch(OperationId operation, InstanceId instance) {
        ReadinessCheck check = ReadinessCheck.of(commands, instance);
        if (check.isGone()) {
            send(new FailOperation(operation, new OperationError("INSTANCE_UNAVAILABLE", check.goneReason(), EffectState.FAILED,
                    OperationError.RETRY_NONE, null, OperationError.Context.EMPTY), null));
        } else if (check.readiness().isServing()) {
            send(new StartOperation(operation, check.readiness().runtimeEpoch(), clock.instant().plus(answerTimeout)));
        }
    }

    private void report(OperationId operation, RuntimeOutcome outcome) {
        switch (outcome) {
            case Committed committed -> send(new CommitOperation(operation, committed.result()));
            case Refused refused -> send(new FailOperation(operation, new OperationError(refused.code(), refused.message(),
                    EffectState.FAILED, refused.retryMode(), null, refused.context()), null));
            case PartiallyApplied partial -> send(new FailOperation(operation, new OperationError(partial.code(),
                    partial.message(), EffectState.FAILED, OperationError.RETRY_MANUAL, null, OperationError.Context.EMPTY),
                    Map.of("operations", partial.operations())));
            case Aborted aborted -> send(new ConfirmOperationCancelled(operation));
        }
    }

    private void send(Object command) {
        ProcessCommands.send(commands, command);
    }
}
