package org.agentplatform.webhook;

import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.webhook.WebhookEvent;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;

/**
 * Sequences the fan-out per task: a task's status transitions and the registrations and removals of its
 * webhooks are handled in the order they happened, so each transition reaches exactly the webhooks
 * registered at that moment.
 */
public final class TaskSequencing implements SequencingPolicy<EventMessage<?>> {

    @Override
    public Object getSequenceIdentifierFor(EventMessage<?> event) {
        return switch (event.getPayload()) {
            case TaskEvent task -> task.taskId().toString();
            case WebhookEvent webhook -> webhook.taskId().toString();
            default -> SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
        };
    }
}
