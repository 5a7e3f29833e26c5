package org.agentplatform.webhook;

import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;

/** Registers the delivery saga, and sequences the fan-out per task and the dispatcher per webhook. */
public final class WebhookSagaModule implements ConfigurerModule {

    @Override
    public void configureModule(Configurer configurer) {
        configurer.eventProcessing(processing -> processing
                .registerSaga(DeliverySaga.class)
                .registerSequencingPolicy(WebhookFanOut.GROUP, config -> new TaskSequencing())
                .registerSequencingPolicy(DeliveryDispatcher.GROUP, config -> new WebhookSequencing()));
    }
}
