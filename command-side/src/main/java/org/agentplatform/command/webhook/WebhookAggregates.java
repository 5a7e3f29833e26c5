package org.agentplatform.command.webhook;

import org.axonframework.config.Configurer;

/** Registers the package-private {@link Webhook} and {@link WebhookDelivery} aggregates. */
public final class WebhookAggregates {

    private WebhookAggregates() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Webhook.class);
        configurer.configureAggregate(WebhookDelivery.class);
    }
}
