package org.agentplatform.infra.axon;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * The event store as the pooled processors' source, with streams that say when events are available.
 * Axon's embedded event store streams do not, so a pooled processor polls every 500 ms: each hop of an
 * operation (queued, running, committed, projected) would wait for it. Here a stream is woken right
 * after a commit on this node, and on a short tick for events committed by other nodes.
 */
final class PromptEventSource implements StreamableMessageSource<TrackedEventMessage<?>>, AutoCloseable {

    private final EventStore eventStore;
    private final Set<Runnable> waiting = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ticker;

    PromptEventSource(EventStore eventStore, Duration tick) {
        this.eventStore = eventStore;
        this.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("event-source-tick").daemon().factory());
        eventStore.subscribe(events -> {
            if (CurrentUnitOfWork.isStarted()) {
                CurrentUnitOfWork.get().root().afterCommit(unitOfWork -> wakeAll());
            } else {
                wakeAll();
            }
        });
        ticker.scheduleWithFixedDelay(this::wakeAll, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void wakeAll() {
        waiting.forEach(Runnable::run);
    }

    @Override
    public BlockingStream<TrackedEventMessage<?>> openStream(TrackingToken trackingToken) {
        BlockingStream<TrackedEventMessage<?>> stream = eventStore.openStream(trackingToken);
        return new BlockingStream<>() {
            private Runnable callback;

            @Override
            public Optional<TrackedEventMessage<?>> peek() {
                return stream.peek();
            }

            @Override
            public boolean hasNextAvailable(int timeout, TimeUnit unit) throws InterruptedException {
                return stream.hasNextAvailable(timeout, unit);
            }

            @Override
            public TrackedEventMessage<?> nextAvailable() throws InterruptedException {
                return stream.nextAvailable();
            }

            @Override
            public boolean setOnAvailableCallback(Runnable onAvailable) {
                if (callback != null) {
                    waiting.remove(callback);
                }
                callback = onAvailable;
                waiting.add(onAvailable);
                return true;
            }

            @Override
            public void skipMessagesWithPayloadTypeOf(TrackedEventMessage<?> ignoredMessage) {
                stream.skipMessagesWithPayloadTypeOf(ignoredMessage);
            }

            @Override
            public void close() {
                if (callback != null) {
                    waiting.remove(callback);
                }
                stream.close();
            }
        };
    }

    @Override
    public TrackingToken createTailToken() {
        return eventStore.createTailToken();
    }

    @Override
    public TrackingToken createHeadToken() {
        return eventStore.createHeadToken();
    }

    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return eventStore.createTokenAt(dateTime);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
