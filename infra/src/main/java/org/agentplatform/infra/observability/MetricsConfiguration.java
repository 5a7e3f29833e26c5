package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.infra.eventstore.StoreHead;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application's own metrics at {@code /actuator/prometheus}, besides the JVM's, HTTP's and the pools':
 * tasks created and finished, command handling time, webhook attempts, per-processor lag, open SSE streams
 * (and, elsewhere, turn duration and parked dead letters).
 */
@Configuration(proxyBeanMethods = false)
public class MetricsConfiguration {

    @Bean
    ConfigurerModule platformMessageMonitors(MeterRegistry meters) {
        return configurer -> configurer
                .configureMessageMonitor(EventStore.class, config -> new EventMetrics(meters))
                .configureMessageMonitor(CommandBus.class, config -> new CommandMetrics(meters));
    }

    @Bean
    ProcessorLag processorLag(EventProcessingConfiguration processing, StoreHead storeHead, MeterRegistry meters) {
        return new ProcessorLag(processing, storeHead, meters);
    }

    @Bean
    MeterBinder openStreamGauges(OpenStreams open) {
        return registry -> {
            for (String kind : OpenStreams.KINDS) {
                Gauge.builder("agent.platform.sse.streams", open, streams -> streams.open(kind))
                        .description("Server-sent event streams open on this node").tag("stream", kind).register(registry);
            }
        };
    }
}
