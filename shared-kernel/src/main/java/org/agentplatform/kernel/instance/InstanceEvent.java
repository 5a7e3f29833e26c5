package org.agentplatform.kernel.instance;

import org.agentplatform.kernel.identity.OwnerId;

/**
 * Events of the {@code Instance} aggregate. The runtime epoch counts the runtime's (re)starts: a call
 * dispatched to an older epoch is refused by the runtime (a fence against stale work).
 */
public sealed interface InstanceEvent {

    InstanceId instanceId();

    /** The instance's runtime (re)started at {@code runtimeEpoch} and serves: deployed, started or restarted. */
    sealed interface RuntimeStarted extends InstanceEvent {

        long runtimeEpoch();
    }

    record InstanceDeployRequested(
            InstanceId instanceId,
            OwnerId ownerId,
            String name,
            String providerId,
            String regionId,
            InstanceKind kind) implements InstanceEvent {
    }

    record InstanceDeployed(InstanceId instanceId, OwnerId ownerId, String providerId, InstanceKind kind, long runtimeEpoch)
            implements RuntimeStarted {
    }

    record InstanceStarted(InstanceId instanceId, OwnerId ownerId, String providerId, InstanceKind kind, long runtimeEpoch)
            implements RuntimeStarted {
    }

    record InstanceStopped(InstanceId instanceId, OwnerId ownerId, String providerId, long runtimeEpoch) implements InstanceEvent {
    }

    record InstanceRestartRequested(InstanceId instanceId, OwnerId ownerId, String providerId, InstanceKind kind)
            implements InstanceEvent {
    }

    record InstanceRestarted(InstanceId instanceId, OwnerId ownerId, String providerId, InstanceKind kind, long runtimeEpoch)
            implements RuntimeStarted {
    }

    record InstanceFailed(InstanceId instanceId, OwnerId ownerId, String reason) implements InstanceEvent {
    }

    record InstanceDestroyed(InstanceId instanceId, OwnerId ownerId, String providerId) implements InstanceEvent {
    }
}
