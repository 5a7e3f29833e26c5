package org.agentplatform.command.operation;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.EffectState;
import org.agentplatform.kernel.operation.OperationCommand.BlockOperationProjection;
import org.agentplatform.kernel.operation.OperationCommand.CancelAnswer;
import org.agentplatform.kernel.operation.OperationCommand.CommitOperation;
import org.agentplatform.kernel.operation.OperationCommand.CompleteOperationProjection;
import org.agentplatform.kernel.operation.OperationCommand.ConfirmOperationCancelled;
import org.agentplatform.kernel.operation.OperationCommand.FailOperation;
import org.agentplatform.kernel.operation.OperationCommand.QueueOperation;
import org.agentplatform.kernel.operation.OperationCommand.RequestOperationCancel;
import org.agentplatform.kernel.operation.OperationCommand.StartOperation;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelRequested;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelled;
import org.agentplatform.kernel.operation.OperationEvent.OperationExpired;
import org.agentplatform.kernel.operation.OperationEvent.OperationFailed;
import org.agentplatform.kernel.operation.OperationEvent.OperationOutcomeUnknown;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionBlocked;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionPending;
import org.agentplatform.kernel.operation.OperationEvent.OperationQueued;
import org.agentplatform.kernel.operation.OperationEvent.OperationRuntimeCommitted;
import org.agentplatform.kernel.operation.OperationEvent.OperationStarted;
import org.agentplatform.kernel.operation.OperationEvent.OperationSucceeded;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationProjection;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;

/**
 * One call of a runtime method, from queue to outcome (see {@link OperationStatus}). Two persistent
 * deadlines guard it: not started by its deadline, it expires; dispatched but unanswered by the answer
 * deadline, its outcome is unknown. A cancel wins until the runtime commits.
 */
class RuntimeOperation {

    static final String START_DEADLINE = "operation-start";
    static final String ANSWER_DEADLINE = "operation-answer";

    private OperationId id;
    private InstanceId instanceId;
    private OwnerId ownerId;
    private RuntimeMethod method;
    private Map<String, Object> params;
    private String requestId;
    private OperationStatus status;
    private long runtimeEpoch;
    private boolean cancelRequested;
    private final Set<String> cancelKeys = new HashSet<>();

    protected RuntimeOperation() {
        // for event sourcing
    }

    /** The id as a string: deadline scopes are serialized, and a string survives that where a record would not. */
    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    RuntimeOperation(QueueOperation command, DeadlineManager deadlines) {
        apply(new OperationQueued(command.operationId(), command.instanceId(), command.ownerId(), command.method(),
                command.params(), command.resourceKey(), command.requestDigest(), command.deadline(), command.requestId()));
        deadlines.schedule(command.deadline(), START_DEADLINE);
    }

    @CommandHandler
    void handle(StartOperation command, DeadlineManager deadlines) {
        requireTransition(OperationStatus.RUNNING, "start");
        apply(new OperationStarted(id, instanceId, ownerId, method, params, command.runtimeEpoch(), command.answerDeadline()));
        deadlines.schedule(command.answerDeadline(), ANSWER_DEADLINE);
    }

    @CommandHandler
    CancelAnswer handle(RequestOperationCancel command) {
        if (command.requestedBy() != null && !command.requestedBy().equals(ownerId)) {
            throw CommandRefused.notFound("No operation " + id);
        }
        if (cancelKeys.contains(command.idempotencyKey())) {
            return new CancelAnswer(true);
        }
        if (!status.isCancellable()) {
            return new CancelAnswer(false);
        }
        if (status == OperationStatus.QUEUED) {
            apply(new OperationCancelRequested(id, instanceId, OperationStatus.QUEUED, command.idempotencyKey(),
                    command.requester(), command.reason()));
            apply(new OperationCancelled(id, instanceId, cancelledError()));
        } else {
            apply(new OperationCancelRequested(id, instanceId, status, command.idempotencyKey(), command.requester(),
                    command.reason()));
        }
        return new CancelAnswer(true);
    }

    @CommandHandler
    void handle(ConfirmOperationCancelled command) {
        if (status != OperationStatus.RUNNING || !cancelRequested) {
            throw refusal("confirm the cancellation of");
        }
        apply(new OperationCancelled(id, instanceId, cancelledError()));
    }

    @CommandHandler
    void handle(CommitOperation command) {
        requireTransition(OperationStatus.RUNTIME_COMMITTED, "commit");
        apply(new OperationRuntimeCommitted(id, instanceId, command.result()));
        if (method.isProjected()) {
            apply(new OperationProjectionPending(id, instanceId, ownerId, method, params, command.result()));
        } else {
            apply(new OperationSucceeded(id, instanceId, OperationProjection.NOT_APPLICABLE));
        }
    }

    @CommandHandler
    void handle(FailOperation command) {
        requireTransition(OperationStatus.FAILED, "fail");
        OperationError error = command.error();
        apply(new OperationFailed(id, instanceId, new OperationError(error.code(), error.message(), error.effectState(),
                error.retryMode(), requestId, error.context()), command.result()));
    }

    @CommandHandler
    void handle(CompleteOperationProjection command) {
        require(OperationStatus.PROJECTION_PENDING, "complete the projection of");
        apply(new OperationSucceeded(id, instanceId, command.projection()));
    }

    @CommandHandler
    void handle(BlockOperationProjection command) {
        require(OperationStatus.PROJECTION_PENDING, "block the projection of");
        apply(new OperationProjectionBlocked(id, instanceId, command.error()));
    }

    @DeadlineHandler(deadlineName = START_DEADLINE)
    void startDeadlinePassed() {
        if (status == OperationStatus.QUEUED) {
            apply(new OperationExpired(id, instanceId, new OperationError("OPERATION_EXPIRED",
                    "The instance did not take the operation before its deadline; nothing was applied",
                    EffectState.EXPIRED, OperationError.RETRY_SAFE, requestId, OperationError.Context.EMPTY)));
        }
    }

    @DeadlineHandler(deadlineName = ANSWER_DEADLINE)
    void answerDeadlinePassed() {
        if (status == OperationStatus.RUNNING) {
            apply(new OperationOutcomeUnknown(id, instanceId, new OperationError("RUNTIME_OUTCOME_UNKNOWN",
                    "The runtime did not answer after the operation was dispatched; it may or may not have been applied",
                    EffectState.OUTCOME_UNKNOWN, OperationError.RETRY_MANUAL, requestId,
                    new OperationError.Context(Long.toString(runtimeEpoch), null, null, null, null))));
        }
    }

    private OperationError cancelledError() {
        return new OperationError("OPERATION_CANCELLED", "The operation was cancelled before the runtime applied it",
                EffectState.CANCELLED, OperationError.RETRY_SAFE, requestId, OperationError.Context.EMPTY);
    }

    private void require(OperationStatus expected, String action) {
        if (status != expected) {
            throw refusal(action);
        }
    }

    private void requireTransition(OperationStatus next, String action) {
        if (!status.canBecome(next)) {
            throw refusal(action);
        }
    }

    private CommandRefused refusal(String action) {
        return CommandRefused.conflict("Cannot " + action + " operation " + id + " while it is " + status.wireName());
    }

    @EventSourcingHandler
    void on(OperationQueued event) {
        id = event.operationId();
        instanceId = event.instanceId();
        ownerId = event.ownerId();
        method = event.method();
        params = event.params();
        requestId = event.requestId();
        status = OperationStatus.QUEUED;
    }

    @EventSourcingHandler
    void on(OperationStarted event) {
        status = OperationStatus.RUNNING;
        runtimeEpoch = event.runtimeEpoch();
    }

    @EventSourcingHandler
    void on(OperationCancelRequested event) {
        cancelRequested = true;
        cancelKeys.add(event.idempotencyKey());
    }

    @EventSourcingHandler
    void on(OperationCancelled event) {
        status = OperationStatus.CANCELLED;
    }

    @EventSourcingHandler
    void on(OperationExpired event) {
        status = OperationStatus.EXPIRED;
    }

    @EventSourcingHandler
    void on(OperationRuntimeCommitted event) {
        status = OperationStatus.RUNTIME_COMMITTED;
    }

    @EventSourcingHandler
    void on(OperationProjectionPending event) {
        status = OperationStatus.PROJECTION_PENDING;
    }

    @EventSourcingHandler
    void on(OperationSucceeded event) {
        status = OperationStatus.SUCCEEDED;
    }

    @EventSourcingHandler
    void on(OperationProjectionBlocked event) {
        status = OperationStatus.PROJECTION_BLOCKED;
    }

    @EventSourcingHandler
    void on(OperationFailed event) {
        status = OperationStatus.FAILED;
    }

    @EventSourcingHandler
    void on(OperationOutcomeUnknown event) {
        status = OperationStatus.OUTCOME_UNKNOWN;
    }
}
