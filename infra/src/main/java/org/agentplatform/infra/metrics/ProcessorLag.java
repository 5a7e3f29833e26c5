package org.agentplatform.infra.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.OptionalLong;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code agent_platform_processor_lag_events{processor}}: how many events the head of the event store is ahead of
 * the slowest segment this node processes (NaN when it processes none). The head is read at most once a second.
 */
final class ProcessorLag implements SmartLifecycle {

    private static final long FRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final EventProcessingConfiguration processing;
    private final JdbcTemplate jdbc;
    private final MeterRegistry meters;
    private volatile long head;
    private volatile long headReadAt = System.nanoTime() - FRESH_NANOS;
    private volatile boolean running;

    ProcessorLag(EventProcessingConfiguration processing, JdbcTemplate jdbc, MeterRegistry meters) {
        this.processing = processing;
        this.jdbc = jdbc;
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
        long slowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : processor.processingStatus().values()) {
            OptionalLong position = status.getCurrentPosition();
            if (position.isPresent()) {
                slowest = Math.min(slowest, position.getAsLong());
            }
        }
        return slowest == Long.MAX_VALUE ? Double.NaN : Math.max(0, head() - slowest);
    }

    private long head() {
        if (System.nanoTime() - headReadAt > FRESH_NANOS) {
            Long newest = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
            head = newest == null ? -1 : newest;
            headReadAt = System.nanoTime();
        }
        return head;
    }
}
