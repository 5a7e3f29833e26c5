package org.agentplatform.infra.eventstore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.agentplatform.api.processor.NodeProcessors;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link NodeProcessors} from this node's streaming processors, the token store (segments in all) and the dead-letter
 * queue (parked events); a retry is queued and announced as {@code deadletters retry} does
 * ({@link ProcessorDeadLetters#queueRetry}). Queries run off the event loop.
 */
final class ProcessorOverview implements NodeProcessors {

    private final EventProcessingConfiguration processing;
    private final StoreHead store;
    private final JdbcTemplate jdbc;

    ProcessorOverview(EventProcessingConfiguration processing, StoreHead store, JdbcTemplate jdbc) {
        this.processing = processing;
        this.store = store;
        this.jdbc = jdbc;
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
        Map<String, Parked> parked = new HashMap<>();
        jdbc.query("SELECT processing_group, count(*) AS events, count(DISTINCT sequence_identifier) AS sequences,"
                + " min(enqueued_at) AS oldest FROM dead_letter_entry GROUP BY processing_group", row -> {
                    parked.put(row.getString("processing_group"), new Parked(row.getLong("events"), row.getLong("sequences"),
                            row.getTimestamp("oldest").toInstant()));
                });
        List<Processor> processors = new ArrayList<>();
        new TreeMap<>(processing.eventProcessors()).forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor streaming) {
                // one read of the segments' positions: the lag shown is the head less the position shown beside it
                OptionalLong slowest = StoreHead.slowest(streaming);
                OptionalLong lag = StoreHead.lag(slowest, head);
                Parked letters = parked.getOrDefault(name, Parked.NONE);
                processors.add(new Processor(name, head, slowest.isPresent() ? slowest.getAsLong() : null,
                        lag.isPresent() ? lag.getAsLong() : null, segments.getOrDefault(name, 0),
                        streaming.processingStatus().size(), letters.events(), letters.sequences(), letters.oldest()));
            }
        });
        return processors;
    }

    @Override
    public Mono<Retry> retryDeadLetters(String processor) {
        if (!(processing.eventProcessors().get(processor) instanceof StreamingEventProcessor)) {
            return Mono.empty();
        }
        return Mono.fromCallable(() -> ProcessorDeadLetters.queueRetry(jdbc, processor))
                .map(queued -> new Retry(queued.id(), processor, queued.requestedAt()))
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** A processor's parked events: how many, in how many sequences, since when. */
    private record Parked(long events, long sequences, @Nullable Instant oldest) {

        static final Parked NONE = new Parked(0, 0, null);
    }
}
