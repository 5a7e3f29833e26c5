package org.agentplatform.query.instance;

import java.time.Duration;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.query.Page;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/** Reads of the instance read model: within one owner's instances, but for whether an instance serves. */
public interface InstanceReads {

    Mono<InstanceRecord> find(OwnerId ownerId, InstanceId instanceId);

    /** The instance whoever owns it (for questions about it, such as whether it serves, not for showing it). */
    Mono<InstanceRecord> find(InstanceId instanceId);

    /** A page of the owner's instances, newest first, destroyed ones included, after {@code before} (a page's cursor). */
    Mono<Page<InstanceRecord>> list(OwnerId ownerId, @Nullable Long before, int limit);

    /** The instance once the read model has caught up with {@code version}; empty if it does not within {@code wait}. */
    /**
     * The owner's instance, also one deployed a moment ago that the read model does not show yet (the event store holds
     * it): that one once its projection commits, waiting up to {@code wait}, then {@link org.agentplatform.query.ReadModelBehind}.
     * Empty for an unknown instance or another owner's.
     */
    Mono<InstanceRecord> findAccepted(OwnerId ownerId, InstanceId instanceId, Duration wait);

    Mono<InstanceRecord> awaitVersion(OwnerId ownerId, InstanceId instanceId, long version, Duration wait);
}
