package org.agentplatform.kernel.webhook;

import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Webhook} aggregate. Secrets and tokens never travel in commands or events: they
 * are sealed in the vault first and named by reference ({@code secret:<id>}).
 */
public sealed interface WebhookCommand {

    /**
     * Registers the webhook, or registers it again: a non-null reference replaces the one held (a fresh
     * secret rotates it), a null one leaves it as it is.
     */
    record RegisterWebhook(
            @TargetAggregateIdentifier WebhookId webhookId,
            TaskId taskId,
            OwnerId ownerId,
            String url,
            String secretRef,
            String tokenRef) implements WebhookCommand {
    }

    record RemoveWebhook(@TargetAggregateIdentifier WebhookId webhookId, OwnerId requestedBy) implements WebhookCommand {
    }

    /** The answer to a registration: the aggregate's version after it. */
    record Registered(WebhookId webhookId, long version) {
    }
}
