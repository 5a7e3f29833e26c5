package org.agentplatform.command.webhook;

import org.agentplatform.command.CachedAggregates;
import org.axonframework.config.Configurer;

/** Registers the package-private {@link Webhook} and {@link WebhookDelivery} aggregates (deliveries cached between their attempts). */
public final class WebhookAggregatesRegistrar {

    private WebhookAggregatesRegistrar() {
    }

    public static void register(Configurer configurer) {
        configurer.configureAggregate(Webhook.class);
        configurer.configureAggregate(CachedAggregates.of(WebhookDelivery.class));
    }
}
