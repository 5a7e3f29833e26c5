package org.agentplatform.infra.eventstore;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.agentplatform.api.processor.NodeProcessors;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link NodeProcessors} from this node's streaming processors, the token store (segments in all) and the dead-letter
 * queue (parked events); a retry is queued and announced as {@code deadletters retry} does, for
 * {@link ProcessorDeadLetterRetries} on every node. Queries run off the event loop.
 */
final class ProcessorOverview implements NodeProcessors {

    private final EventProcessingConfiguration processing;
    private final StoreHead store;
    private final JdbcTemplate jdbc;
    private final Clock clock;

    ProcessorOverview(EventProcessingConfiguration processing, StoreHead store, JdbcTemplate jdbc, Clock clock) {
        this.processing = processing;
        this.store = store;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Override
    public Mono<List<Processor>> processors() {
        return Mono.fromCallable(this::read).subscribeOn(Schedulers.boundedElastic());
    }

    private List<Processor> read() {
        long head = store.head();
        Map<String, Integer> segments = new HashMap<>();
        jdbc.query("SELECT processor_name, count(*) AS segments FROM token_entry GROUP BY processor_name",
                row -> {
                    segments.put(row.getString("processor_name"), row.getInt("segments"));
                });
        Map<String, Object[]> parked = new HashMap<>();
        jdbc.query("SELECT processing_group, count(*) AS events, count(DISTINCT sequence_identifier) AS sequences,"
                + " min(enqueued_at) AS oldest FROM dead_letter_entry GROUP BY processing_group", row -> {
                    parked.put(row.getString("processing_group"),
                            new Object[] {row.getLong("events"), row.getLong("sequences"), row.getTimestamp("oldest")});
                });
        List<Processor> processors = new ArrayList<>();
        new TreeMap<>(processing.eventProcessors()).forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor streaming) {
                OptionalLong slowest = StoreHead.slowest(streaming);
                Object[] letters = parked.getOrDefault(name, new Object[] {0L, 0L, null});
                processors.add(new Processor(name, head, slowest.isPresent() ? slowest.getAsLong() : null,
                        slowest.isPresent() ? Math.max(0, head - slowest.getAsLong()) : null, segments.getOrDefault(name, 0),
                        streaming.processingStatus().size(), (Long) letters[0], (Long) letters[1],
                        letters[2] == null ? null : ((Timestamp) letters[2]).toInstant()));
            }
        });
        return processors;
    }

    @Override
    public Mono<Retry> retryDeadLetters(String processor) {
        if (!(processing.eventProcessors().get(processor) instanceof StreamingEventProcessor)) {
            return Mono.empty();
        }
        return Mono.fromCallable(() -> {
            Long id = jdbc.queryForObject("INSERT INTO dead_letter_retry (processing_group, requested_at) VALUES (?, ?) RETURNING id",
                    Long.class, processor, Timestamp.from(clock.instant()));
            jdbc.execute("NOTIFY " + ProcessorDeadLetters.RETRY_CHANNEL + ", '" + ProcessorDeadLetters.RETRY_KEY + "'");
            return new Retry(id, processor, clock.instant());
        }).subscribeOn(Schedulers.boundedElastic());
    }
}
