package org.agentplatform.query.instance;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;

/** An instance as the read model knows it; {@code version} is the sequence of its last projected event. */
public record InstanceRecord(
        InstanceId id,
        OwnerId ownerId,
        String name,
        String providerId,
        String regionId,
        InstanceKind kind,
        InstanceStatus status,
        long runtimeEpoch,
        String failureReason,
        long version,
        Instant createdAt,
        Instant updatedAt) {
}
