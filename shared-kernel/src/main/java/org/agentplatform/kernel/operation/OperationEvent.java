package org.agentplatform.kernel.operation;

import java.time.Instant;
import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/**
 * Events of the {@code RuntimeOperation} aggregate; their sequence numbers are the operation's
 * {@code sequence} and the ids of its event stream. Each carries what its readers need.
 */
public sealed interface OperationEvent {

    OperationId operationId();

    InstanceId instanceId();

    OperationStatus status();

    record OperationQueued(
            OperationId operationId,
            InstanceId instanceId,
            OwnerId ownerId,
            RuntimeMethod method,
            Map<String, Object> params,
            String resourceKey,
            String requestDigest,
            Instant deadline,
            String requestId) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.QUEUED;
        }
    }

    record OperationStarted(
            OperationId operationId,
            InstanceId instanceId,
            OwnerId ownerId,
            RuntimeMethod method,
            Map<String, Object> params,
            long runtimeEpoch,
            Instant answerDeadline) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.RUNNING;
        }
    }

    /** A cancel was asked for; {@code status} is the operation's status right after. */
    record OperationCancelRequested(
            OperationId operationId,
            InstanceId instanceId,
            OperationStatus status,
            String idempotencyKey,
            String requestedBy,
            String reason) implements OperationEvent {
    }

    record OperationCancelled(OperationId operationId, InstanceId instanceId, OperationError error) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.CANCELLED;
        }
    }

    record OperationExpired(OperationId operationId, InstanceId instanceId, OperationError error) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.EXPIRED;
        }
    }

    record OperationRuntimeCommitted(OperationId operationId, InstanceId instanceId, Object result) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.RUNTIME_COMMITTED;
        }
    }

    /** The runtime committed a projected method; the platform now reflects it (see {@code OperationProjector}). */
    record OperationProjectionPending(
            OperationId operationId,
            InstanceId instanceId,
            OwnerId ownerId,
            RuntimeMethod method,
            Map<String, Object> params,
            Object result) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.PROJECTION_PENDING;
        }
    }

    record OperationSucceeded(OperationId operationId, InstanceId instanceId, OperationProjection projection)
            implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.SUCCEEDED;
        }
    }

    record OperationProjectionBlocked(OperationId operationId, InstanceId instanceId, OperationError error)
            implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.PROJECTION_BLOCKED;
        }
    }

    record OperationFailed(OperationId operationId, InstanceId instanceId, OperationError error, Object result)
            implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.FAILED;
        }
    }

    record OperationOutcomeUnknown(OperationId operationId, InstanceId instanceId, OperationError error) implements OperationEvent {

        @Override
        public OperationStatus status() {
            return OperationStatus.OUTCOME_UNKNOWN;
        }
    }
}
