package org.agentplatform.query;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Waiting for a projection to catch up with a command's events (read-your-writes after a command). */
public final class ReadModelWaits {

    private static final Duration POLL = Duration.ofMillis(20);

    private ReadModelWaits() {
    }

    /** Reads until {@code caughtUp} holds; empty when it does not within {@code wait}. */
    public static <T> Mono<T> until(Supplier<Mono<T>> read, Predicate<T> caughtUp, Duration wait) {
        return Flux.interval(Duration.ZERO, POLL)
                .onBackpressureDrop()
                .concatMap(tick -> Mono.defer(read), 1)
                .filter(caughtUp)
                .next()
                .timeout(wait, Mono.empty());
    }
}
