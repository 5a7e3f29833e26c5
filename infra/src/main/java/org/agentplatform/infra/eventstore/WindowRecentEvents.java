package org.agentplatform.infra.eventstore;

import java.time.Duration;
import java.util.List;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.query.RecentEvents;
import org.axonframework.eventhandling.DomainEventMessage;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link RecentEvents} from the window of this node's {@link SharedEventStream}, once the processors have made it (nothing
 * before: a tool's run, the first moments of a start).
 */
final class WindowRecentEvents implements RecentEvents {

    private volatile SharedEventStream window;

    void attach(SharedEventStream window) {
        this.window = window;
    }

    @Override
    public Mono<List<RecentEvent>> of(String aggregate, Duration wait) {
        return Mono.defer(() -> {
            SharedEventStream stream = window;
            if (stream == null) {
                return Mono.empty();
            }
            List<DomainEventMessage<?>> held = stream.held(aggregate);
            if (!held.isEmpty()) {
                return Mono.fromCallable(() -> recent(held));
            }
            return Mono.<List<DomainEventMessage<?>>>create(sink -> {
                        AutoCloseable watch = stream.watch(aggregate, sink::success);
                        sink.onDispose(() -> stop(watch));
                    })
                    // handed over on the reader's thread, which goes back to reading at once
                    .publishOn(Schedulers.parallel())
                    .map(WindowRecentEvents::recent)
                    .timeout(wait, Mono.empty());
        });
    }

    private static List<RecentEvent> recent(List<DomainEventMessage<?>> events) {
        return events.stream().map(event -> new RecentEvent(event.getPayload(), event.getSequenceNumber(),
                ((Number) event.getMetaData().get(GlobalIndex.KEY)).longValue(), event.getTimestamp())).toList();
    }

    private static void stop(AutoCloseable watch) {
        try {
            watch.close();
        } catch (Exception failure) {
            LoggerFactory.getLogger(WindowRecentEvents.class).atDebug().setCause(failure).log("stopping a watch failed");
        }
    }
}
