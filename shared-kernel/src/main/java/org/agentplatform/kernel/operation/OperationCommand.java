package org.agentplatform.kernel.operation;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code RuntimeOperation} aggregate. Params and results are JSON values (maps, lists,
 * strings, numbers, booleans); secret values in params are vault references, never the secrets.
 */
public sealed interface OperationCommand {

    record QueueOperation(
            @TargetAggregateIdentifier OperationId operationId,
            InstanceId instanceId,
            OwnerId ownerId,
            RuntimeMethod method,
            Map<String, Object> params,
            String resourceKey,
            String requestDigest,
            Instant deadline,
            String requestId) implements OperationCommand {
    }

    record StartOperation(@TargetAggregateIdentifier OperationId operationId, long runtimeEpoch, Instant answerDeadline)
            implements OperationCommand {
    }

    /** Answers {@link CancelAnswer}; the same idempotency key always gets the same answer. */
    record RequestOperationCancel(
            @TargetAggregateIdentifier OperationId operationId,
            OwnerId requestedBy,
            String requester,
            String idempotencyKey,
            String reason) implements OperationCommand {
    }

    record CancelAnswer(boolean accepted) {
    }

    record ConfirmOperationCancelled(@TargetAggregateIdentifier OperationId operationId) implements OperationCommand {
    }

    record CommitOperation(@TargetAggregateIdentifier OperationId operationId, Object result) implements OperationCommand {
    }

    record FailOperation(@TargetAggregateIdentifier OperationId operationId, OperationError error, Object result)
            implements OperationCommand {
    }

    record CompleteOperationProjection(@TargetAggregateIdentifier OperationId operationId, OperationProjection projection)
            implements OperationCommand {
    }

    record BlockOperationProjection(@TargetAggregateIdentifier OperationId operationId, OperationError error)
            implements OperationCommand {
    }
}
