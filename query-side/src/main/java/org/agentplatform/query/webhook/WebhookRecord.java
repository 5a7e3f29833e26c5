package org.agentplatform.query.webhook;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.WebhookId;

/** A webhook as the API shows it; whether it holds a secret or token, never which. */
public record WebhookRecord(
        WebhookId id,
        TaskId taskId,
        OwnerId ownerId,
        String url,
        boolean hasSecret,
        boolean hasToken,
        boolean removed,
        long version,
        Instant createdAt,
        Instant updatedAt) {
}
