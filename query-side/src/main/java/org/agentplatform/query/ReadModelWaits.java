package org.agentplatform.query;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.agentplatform.query.feed.ChangeFeed;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Waiting for a read model to show a change (read-your-writes after a command): the projection's commit
 * notification wakes the wait, which reads once per wake; nothing polls. Read models without a channel of
 * their own notify {@value #CHANNEL} with their row's id as the key.
 */
public final class ReadModelWaits {

    public static final String CHANNEL = "read_models";

    private final ChangeFeed feed;

    public ReadModelWaits(ChangeFeed feed) {
        this.feed = feed;
    }

    /** Reads until {@code caughtUp} holds, woken by {@code channel}'s notifications about {@code key}; empty when not within {@code wait}. */
    public <T> Mono<T> until(String channel, Object key, Supplier<Mono<T>> read, Predicate<T> caughtUp, Duration wait) {
        // the feed is subscribed before the first read, so no commit slips between them
        return Flux.merge(feed.on(channel, key.toString()).map(change -> 0L), Mono.just(0L))
                .onBackpressureLatest()
                .concatMap(wake -> Mono.defer(read), 1)
                .filter(caughtUp)
                .next()
                .timeout(wait, Mono.empty());
    }

    /** As above on {@value #CHANNEL}. */
    public <T> Mono<T> until(Object key, Supplier<Mono<T>> read, Predicate<T> caughtUp, Duration wait) {
        return until(CHANNEL, key, read, caughtUp, wait);
    }

    /** Tells the waits on {@code key} that its row changed; PostgreSQL delivers it when the projection's transaction commits. */
    public static void changed(JdbcTemplate jdbc, Object key) {
        jdbc.query("SELECT pg_notify(?, ?)", row -> null, CHANNEL, key.toString());
    }
}
