package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Parked events, as health ({@code deadLetters}: DEGRADED with each processor's parked events and sequences) and
 * as the gauge {@code agent_platform_dead_letters{processor}}. Counts are read at most every few seconds.
 */
public final class ProcessorDeadLetterHealth implements HealthIndicator {

    static final Status DEGRADED = new Status("DEGRADED", "events are parked in a dead-letter queue");
    private static final long FRESH_NANOS = Duration.ofSeconds(5).toNanos();

    private record Parked(long events, long sequences) {
    }

    private final JdbcTemplate jdbc;
    private volatile Map<String, Parked> counts = Map.of();
    private volatile long readAt = System.nanoTime() - FRESH_NANOS;

    public ProcessorDeadLetterHealth(JdbcTemplate jdbc, Set<String> groups, MeterRegistry meters) {
        this.jdbc = jdbc;
        for (String group : groups) {
            Gauge.builder("agent_platform_dead_letters", this, health -> health.parked(group).events())
                    .tag("processor", group)
                    .description("Events parked in the processor's dead-letter queue")
                    .register(meters);
        }
    }

    @Override
    public Health health() {
        Map<String, Parked> parked = read();
        if (parked.isEmpty()) {
            return Health.up().withDetail("parked", 0).build();
        }
        Map<String, Object> processors = new LinkedHashMap<>();
        parked.forEach((group, count) -> processors.put(group, Map.of("events", count.events(), "sequences", count.sequences())));
        return Health.status(DEGRADED).withDetail("processors", processors).build();
    }

    private Parked parked(String group) {
        if (System.nanoTime() - readAt > FRESH_NANOS) {
            read();
        }
        return counts.getOrDefault(group, new Parked(0, 0));
    }

    private Map<String, Parked> read() {
        Map<String, Parked> fresh = new LinkedHashMap<>();
        jdbc.query("SELECT processing_group, count(*) AS events, count(DISTINCT sequence_identifier) AS sequences"
                        + " FROM dead_letter_entry GROUP BY processing_group ORDER BY processing_group",
                row -> {
                    fresh.put(row.getString("processing_group"), new Parked(row.getLong("events"), row.getLong("sequences")));
                });
        counts = fresh;
        readAt = System.nanoTime();
        return fresh;
    }
}
