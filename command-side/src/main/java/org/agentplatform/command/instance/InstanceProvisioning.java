package org.agentplatform.command.instance;

import java.util.concurrent.CompletionStage;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;

/**
 * Port: the provider that runs instances (the built-in {@code local} one, or others behind it). A
 * failed stage means the provider could not do it; the instance then fails.
 */
public interface InstanceProvisioning {

    CompletionStage<Void> deploy(InstanceId instanceId, OwnerId ownerId, String providerId, String regionId, InstanceKind kind);

    /** The runtime serves from this epoch on; calls of older epochs are refused. */
    CompletionStage<Void> activate(InstanceId instanceId, long runtimeEpoch);

    CompletionStage<Void> stop(InstanceId instanceId, long runtimeEpoch);

    CompletionStage<Void> restart(InstanceId instanceId);

    CompletionStage<Void> destroy(InstanceId instanceId);
}
