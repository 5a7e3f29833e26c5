package org.agentplatform.kernel.instance;

import org.agentplatform.kernel.identity.OwnerId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Instance} aggregate. {@code requestedBy} is the calling owner (another owner's
 * instance is "not found"); it is null for the platform's own processes.
 */
public sealed interface InstanceCommand {

    record DeployInstance(
            @TargetAggregateIdentifier InstanceId instanceId,
            OwnerId ownerId,
            String name,
            String providerId,
            String regionId,
            InstanceKind kind) implements InstanceCommand {
    }

    record CompleteInstanceDeployment(@TargetAggregateIdentifier InstanceId instanceId) implements InstanceCommand {
    }

    record StartInstance(@TargetAggregateIdentifier InstanceId instanceId, OwnerId requestedBy) implements InstanceCommand {
    }

    record StopInstance(@TargetAggregateIdentifier InstanceId instanceId, OwnerId requestedBy) implements InstanceCommand {
    }

    record RestartInstance(@TargetAggregateIdentifier InstanceId instanceId, OwnerId requestedBy) implements InstanceCommand {
    }

    record CompleteInstanceRestart(@TargetAggregateIdentifier InstanceId instanceId) implements InstanceCommand {
    }

    record FailInstance(@TargetAggregateIdentifier InstanceId instanceId, String reason) implements InstanceCommand {
    }

    record DestroyInstance(@TargetAggregateIdentifier InstanceId instanceId, OwnerId requestedBy) implements InstanceCommand {
    }

    /**
     * Asks whether the instance takes runtime operations: answers its {@link Readiness}; refuses with
     * not-found for another owner's instance and conflict for a destroyed or failed one. Applies no event.
     */
    record CheckInstanceReadiness(@TargetAggregateIdentifier InstanceId instanceId, OwnerId requestedBy) implements InstanceCommand {
    }

    /** The answer to {@link CheckInstanceReadiness}. */
    record Readiness(InstanceId instanceId, InstanceStatus status, long runtimeEpoch, String providerId, InstanceKind kind) {

        public boolean isServing() {
            return status.isServing();
        }
    }
}
