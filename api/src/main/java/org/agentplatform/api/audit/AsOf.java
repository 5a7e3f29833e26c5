package org.agentplatform.api.audit;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.QueryParams;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code ?as_of=<RFC 3339>} on a single read: the resource as it stood then, folded from its events (a blocking
 * read of the store, run off the event loop); 404 {@code not_found} when it did not exist yet.
 */
public final class AsOf {

    public static final String PARAM = "as_of";

    private AsOf() {
    }

    /** The instant asked for, or null for the resource as it is now. */
    public static Instant parse(String asOf) {
        return QueryParams.instant(PARAM, asOf);
    }

    public static <T> Mono<T> read(Supplier<Optional<T>> fold, String what, Instant at) {
        return Mono.fromCallable(fold::get)
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(Mono::justOrEmpty)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(what + " did not exist yet at " + at)));
    }
}
