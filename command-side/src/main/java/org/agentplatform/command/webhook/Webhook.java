package org.agentplatform.command.webhook;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.util.Objects;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.WebhookCommand.RegisterWebhook;
import org.agentplatform.kernel.webhook.WebhookCommand.Registered;
import org.agentplatform.kernel.webhook.WebhookCommand.RemoveWebhook;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookCredentialsChanged;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRegistered;
import org.agentplatform.kernel.webhook.WebhookEvent.WebhookRemoved;
import org.agentplatform.kernel.webhook.WebhookEvent;
import org.agentplatform.kernel.webhook.WebhookId;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;
import org.axonframework.modelling.command.CreationPolicy;

/**
 * A task's webhook (a URL, its id derived from task and URL): registered, registered again (a fresh secret
 * or token replaces the one held), removed, and registered anew after that. Only vault references of the
 * secret and token are held.
 */
class Webhook {

    private WebhookId id;
    private TaskId taskId;
    private OwnerId ownerId;
    private String secretRef;
    private String tokenRef;
    private boolean active;

    protected Webhook() {
        // for event sourcing and creation
    }

    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    Registered handle(RegisterWebhook command) {
        if (id != null && !ownerId.equals(command.ownerId())) {
            throw CommandRefused.agentNotFound("No task " + command.taskId());
        }
        if (!active) {
            apply(new WebhookRegistered(command.webhookId(), command.taskId(), command.ownerId(), command.url(), command.secretRef(),
                    command.tokenRef()));
        } else {
            String secret = command.secretRef() != null ? command.secretRef() : secretRef;
            String token = command.tokenRef() != null ? command.tokenRef() : tokenRef;
            if (!Objects.equals(secret, secretRef) || !Objects.equals(token, tokenRef)) {
                apply(new WebhookCredentialsChanged(id, taskId, secret, token));
            }
        }
        return new Registered(command.webhookId(), AggregateLifecycle.getVersion());
    }

    @CommandHandler
    Long handle(RemoveWebhook command) {
        if (!active || !ownerId.equals(command.requestedBy())) {
            throw CommandRefused.notFound("No webhook " + command.webhookId());
        }
        apply(new WebhookRemoved(id, taskId));
        return AggregateLifecycle.getVersion();
    }

    @EventSourcingHandler
    void on(WebhookEvent event) {
        switch (event) {
            case WebhookRegistered registered -> {
                id = registered.webhookId();
                taskId = registered.taskId();
                ownerId = registered.ownerId();
                secretRef = registered.secretRef();
                tokenRef = registered.tokenRef();
                active = true;
            }
            case WebhookCredentialsChanged changed -> {
                secretRef = changed.secretRef();
                tokenRef = changed.tokenRef();
            }
            case WebhookRemoved removed -> {
                active = false;
                secretRef = null;
                tokenRef = null;
            }
        }
    }
}
