package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.OptionalLong;
import org.agentplatform.infra.eventstore.StoreHead;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.context.SmartLifecycle;

/**
 * {@code agent_platform_processor_lag_events{processor}}: how many events the head of the event store is ahead of
 * the slowest segment this node processes (NaN when it processes none). The head is read at most once a second.
 */
final class ProcessorLag implements SmartLifecycle {

    private final EventProcessingConfiguration processing;
    private final StoreHead store;
    private final MeterRegistry meters;
    private volatile boolean running;

    ProcessorLag(EventProcessingConfiguration processing, StoreHead store, MeterRegistry meters) {
        this.processing = processing;
        this.store = store;
        this.meters = meters;
    }

    @Override
    public void start() {
        processing.eventProcessors().forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor streaming) {
                Gauge.builder("agent.platform.processor.lag", streaming, this::lag)
                        .description("Events the event store's head is ahead of this processor's slowest segment on this node")
                        .baseUnit("events")
                        .tag("processor", name)
                        .register(meters);
            }
        });
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100; // once the processors exist
    }

    private double lag(StreamingEventProcessor processor) {
        OptionalLong lag = StoreHead.lag(processor, store.head());
        return lag.isEmpty() ? Double.NaN : lag.getAsLong();
    }
}
