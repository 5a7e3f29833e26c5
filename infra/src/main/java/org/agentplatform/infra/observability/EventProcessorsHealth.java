package org.agentplatform.infra.observability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.infra.eventstore.ProcessorDeadLetters;
import org.agentplatform.infra.eventstore.ProcessorFailures;
import org.agentplatform.infra.eventstore.StoreHead;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the event processors make progress (part of readiness): DOWN when one is not running, its coordinator is in
 * back-off (it could not claim its segments or read the store), it keeps failing (its batches fail and are retried: the
 * database under it is in trouble, see {@link ProcessorDeadLetters}; judged by {@link ProcessorFailures} alone), or it
 * has not moved for {@link #STALLED} while events wait for it. It comes back by itself once they move again.
 * A processor whose segments all run on other nodes is not judged here.
 *
 * <p>A segment's own error state is not a judgement: it lasts from a failed batch until the segment is released (a
 * moment), so read at a first failure it said DOWN and, once the segment was released, UP while the processor went on
 * failing. A failed batch counts through {@link ProcessorFailures}, which holds until the processor passes its events.
 */
public final class EventProcessorsHealth implements HealthIndicator {

    static final Duration STALLED = Duration.ofSeconds(60);

    private record Progress(long position, long sinceNanos) {
    }

    private final EventProcessingConfiguration processing;
    private final ProcessorFailures failures;
    private final StoreHead store;
    private final Map<String, Progress> progress = new ConcurrentHashMap<>();

    public EventProcessorsHealth(EventProcessingConfiguration processing, ProcessorFailures failures, StoreHead store) {
        this.processing = processing;
        this.failures = failures;
        this.store = store;
    }

    @Override
    public Health health() {
        long head = store.head();
        long now = System.nanoTime();
        Map<String, String> problems = new LinkedHashMap<>();
        processing.eventProcessors().forEach((name, processor) -> {
            if (!(processor instanceof StreamingEventProcessor streaming)) {
                return;
            }
            String problem = problem(name, streaming, head, now);
            if (problem != null) {
                problems.put(name, problem);
            }
        });
        return problems.isEmpty() ? Health.up().build() : Health.down().withDetails(problems).build();
    }

    /** Why the processor cannot make progress now, or null. */
    private String problem(String name, StreamingEventProcessor processor, long head, long now) {
        if (!processor.isRunning()) {
            return "not running";
        }
        if (processor.isError()) {
            return "failing: its coordinator could not claim its segments or read the store, and retries with back-off";
        }
        String failing = failures.failing(name);
        if (failing != null) {
            return failing;
        }
        OptionalLong slowest = StoreHead.slowest(processor);
        OptionalLong behind = StoreHead.lag(slowest, head);
        if (behind.isEmpty() || behind.getAsLong() == 0) {
            progress.remove(name);
            return null;
        }
        Progress seen = progress.get(name);
        if (seen == null || seen.position() != slowest.getAsLong()) {
            progress.put(name, new Progress(slowest.getAsLong(), now));
            return null;
        }
        long idle = Duration.ofNanos(now - seen.sinceNanos()).toSeconds();
        return idle >= STALLED.toSeconds() ? "stalled: no progress for " + idle + " s, " + behind.getAsLong() + " events behind" : null;
    }
}
