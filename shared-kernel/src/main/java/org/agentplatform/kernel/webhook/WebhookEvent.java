package org.agentplatform.kernel.webhook;

import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;

/** Events of the {@code Webhook} aggregate; secrets appear only as vault references. */
public sealed interface WebhookEvent {

    WebhookId webhookId();

    TaskId taskId();

    record WebhookRegistered(
            WebhookId webhookId,
            TaskId taskId,
            OwnerId ownerId,
            String url,
            String secretRef,
            String tokenRef) implements WebhookEvent {
    }

    /** Registered again: {@code secretRef}/{@code tokenRef} are the ones now in effect. */
    record WebhookCredentialsChanged(WebhookId webhookId, TaskId taskId, String secretRef, String tokenRef) implements WebhookEvent {
    }

    record WebhookRemoved(WebhookId webhookId, TaskId taskId) implements WebhookEvent {
    }
}
