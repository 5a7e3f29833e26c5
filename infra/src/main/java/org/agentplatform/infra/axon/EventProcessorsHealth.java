package org.agentplatform.infra.axon;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Whether the event processors make progress (part of readiness): DOWN when one is not running, keeps failing
 * (its batches fail and are retried: the database under it is in trouble, see {@link DeadLetters}), or
 * has not moved for {@link #STALLED} while events wait for it. It comes back by itself once they move again.
 * A processor whose segments all run on other nodes is not judged here.
 */
final class EventProcessorsHealth implements HealthIndicator {

    static final Duration STALLED = Duration.ofSeconds(60);

    private record Progress(long position, long sinceNanos) {
    }

    private final EventProcessingConfiguration processing;
    private final ProcessorFailures failures;
    private final JdbcTemplate jdbc;
    private final Map<String, Progress> progress = new ConcurrentHashMap<>();

    EventProcessorsHealth(EventProcessingConfiguration processing, ProcessorFailures failures, JdbcTemplate jdbc) {
        this.processing = processing;
        this.failures = failures;
        this.jdbc = jdbc;
    }

    @Override
    public Health health() {
        Long newest = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry", Long.class);
        long head = newest == null ? -1 : newest;
        long now = System.nanoTime();
        Map<String, String> problems = new LinkedHashMap<>();
        processing.eventProcessors().forEach((name, processor) -> {
            if (!(processor instanceof StreamingEventProcessor streaming)) {
                return;
            }
            if (!streaming.isRunning()) {
                problems.put(name, "not running");
            } else if (streaming.isError()) {
                problems.put(name, "failing: its batches keep failing and are retried with back-off");
            } else if (failures.failing(name) != null) {
                problems.put(name, failures.failing(name));
            } else {
                String stalled = stalled(name, streaming, head, now);
                if (stalled != null) {
                    problems.put(name, stalled);
                }
            }
        });
        return problems.isEmpty() ? Health.up().build() : Health.down().withDetails(problems).build();
    }

    private String stalled(String name, StreamingEventProcessor processor, long head, long now) {
        long slowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : processor.processingStatus().values()) {
            if (status.isErrorState()) {
                return "failing: " + status.getError();
            }
            OptionalLong position = status.getCurrentPosition();
            if (position.isPresent()) {
                slowest = Math.min(slowest, position.getAsLong());
            }
        }
        if (slowest == Long.MAX_VALUE || slowest >= head) {
            progress.remove(name);
            return null;
        }
        Progress seen = progress.get(name);
        if (seen == null || seen.position() != slowest) {
            progress.put(name, new Progress(slowest, now));
            return null;
        }
        long idle = Duration.ofNanos(now - seen.sinceNanos()).toSeconds();
        return idle >= STALLED.toSeconds() ? "stalled: no progress for " + idle + " s, " + (head - slowest) + " events behind" : null;
    }
}
