package org.agentplatform.api.operation;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.api.web.SealedTexts;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.operation.OperationEventRecord;
import org.agentplatform.query.operation.OperationReads;
import org.agentplatform.query.operation.OperationViewProjection;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * An operation's durable event stream as server-sent events: every event after the cursor, in order,
 * {@code id:} = its sequence, until the terminal one. Notifications wake the stream, the rows are
 * read; comments keep it alive.
 */
public final class OperationStream {

    private static final Object WAKE = new Object();
    private static final Object END = new Object();

    private final OperationReads operations;
    private final ChangeFeed feed;
    private final JsonMapper json;
    private final Duration heartbeat;
    private final OpenStreams open;

    public OperationStream(OperationReads operations, ChangeFeed feed, JsonMapper json, Duration heartbeat, OpenStreams open) {
        this.operations = operations;
        this.feed = feed;
        this.json = json;
        this.heartbeat = heartbeat;
        this.open = open;
    }

    /** {@code open} opens the owner's sealed texts in the events' data (a cron run's output). */
    public Flux<ServerSentEvent<String>> after(OperationId operation, long cursor, UnaryOperator<String> opener) {
        AtomicLong last = new AtomicLong(cursor);
        // the feed is subscribed before the first read, so no commit slips between them
        Flux<Object> wakes = Flux.merge(feed.on(OperationViewProjection.CHANNEL, operation.toString()).map(any -> WAKE), Mono.just(WAKE))
                .onBackpressureLatest();
        Flux<Object> events = wakes
                .concatMap(wake -> operations.eventsAfter(operation, last.get()).doOnNext(event -> last.set(event.sequence())), 1)
                .takeUntil(event -> event.status().isTerminal())
                .<Object>map(event -> event(event, opener))
                .concatWithValues(END);
        return open.track(OpenStreams.OPERATION, Flux.merge(events, EventStreams.keepAlive(heartbeat))
                .takeUntil(item -> item == END)
                .filter(item -> item != END)
                .cast(ServerSentEvent.class)
                .map(event -> (ServerSentEvent<String>) event));
    }

    private ServerSentEvent<String> event(OperationEventRecord event, UnaryOperator<String> open) {
        String sequence = Long.toString(event.sequence());
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("operationId", event.operationId().toString());
        envelope.put("instanceId", event.instanceId().toString());
        envelope.put("sequence", sequence);
        envelope.put("cursor", sequence);
        envelope.put("type", event.type());
        envelope.put("occurredAt", event.occurredAt().toString());
        envelope.put("status", event.status().wireName());
        envelope.put("effectState", event.status().effectState().wireName());
        envelope.put("terminal", event.status().isTerminal());
        envelope.put("data", SealedTexts.opened(event.data(), open));
        return ServerSentEvent.builder(json.writeValueAsString(envelope)).id(sequence).event(event.type()).build();
    }
}
