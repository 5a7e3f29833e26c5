package org.agentplatform.webhook;

import org.agentplatform.kernel.webhook.DeliveryEvent;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.async.SequencingPolicy;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;

/** Sequences the dispatcher per webhook: a webhook's deliveries reach it in the order they were created. */
public final class WebhookSequencing implements SequencingPolicy<EventMessage<?>> {

    @Override
    public Object getSequenceIdentifierFor(EventMessage<?> event) {
        return event.getPayload() instanceof DeliveryEvent delivery
                ? delivery.webhookId().toString()
                : SequentialPerAggregatePolicy.instance().getSequenceIdentifierFor(event);
    }
}
