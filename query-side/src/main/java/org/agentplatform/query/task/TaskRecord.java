package org.agentplatform.query.task;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;

/**
 * A task as of its latest event ({@code version} is the aggregate sequence). {@code lastOffset} is the
 * true maximum offset of its log (chunks included); {@code changeOffset} the offset of its latest event;
 * chunks at or below {@code prunedThrough} (null: none) are gone.
 */
public record TaskRecord(
        TaskId id,
        OwnerId ownerId,
        AgentId agentId,
        InstanceId instanceId,
        String contextId,
        TaskOrigin origin,
        TaskStatus status,
        int turn,
        String text,
        String errorCode,
        String errorMessage,
        Instant deadline,
        long lastOffset,
        long changeOffset,
        Long prunedThrough,
        long version,
        Instant createdAt,
        Instant updatedAt) {
}
