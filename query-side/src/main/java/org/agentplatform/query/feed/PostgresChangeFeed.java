package org.agentplatform.query.feed;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * One LISTEN connection per node, its notifications handed to the subscribers of their key only (a
 * node may hold thousands of streams: a notification costs one map lookup, not one test per stream).
 * Each time the connection is (re)established every subscriber is woken, because notifications sent
 * while it was down are lost.
 */
public final class PostgresChangeFeed implements ChangeFeed, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PostgresChangeFeed.class);
    private final Map<Subscription, Set<FluxSink<Change>>> subscribers = new ConcurrentHashMap<>();
    /** The subscribers of {@link #every}, by channel. */
    private final Map<String, Set<FluxSink<Change>>> watchers = new ConcurrentHashMap<>();
    private final Disposable listening;

    private record Subscription(String channel, String key) {
    }

    public PostgresChangeFeed(PostgresqlConnectionFactory connections, List<String> channels) {
        this.listening = Mono.usingWhen(connections.create(), connection -> listen(connection, channels), PostgresqlConnection::close)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5))
                        .doBeforeRetry(signal -> log.atWarn().setCause(signal.failure()).log("change feed reconnecting")))
                .subscribe();
    }

    private Mono<Void> listen(PostgresqlConnection connection, List<String> channels) {
        Flux<Long> subscribe = Flux.fromIterable(channels)
                .concatMap(channel -> connection.createStatement("LISTEN " + channel).execute().flatMap(result -> result.getRowsUpdated()));
        return subscribe
                .then(Mono.fromRunnable(this::wakeEveryone))
                .thenMany(connection.getNotifications())
                .doOnNext(notification -> deliver(notification.getName(), notification.getParameter()))
                .then(Mono.error(new IllegalStateException("LISTEN connection closed")));
    }

    private void deliver(String channel, String payload) {
        if (payload == null) {
            return;
        }
        Change change = new Change(channel, payload);
        send(watchers.get(channel), change);
        send(subscribers.get(new Subscription(channel, ChangeFeed.keyOf(payload))), change);
    }

    private void wakeEveryone() {
        watchers.forEach((channel, sinks) -> send(sinks, new Change(channel, ":" + RESYNC)));
        subscribers.forEach((subscription, sinks) -> send(sinks, new Change(subscription.channel(), subscription.key() + ":" + RESYNC)));
    }

    private static void send(Set<FluxSink<Change>> sinks, Change change) {
        if (sinks != null) {
            sinks.forEach(sink -> sink.next(change));
        }
    }

    @Override
    public Flux<Change> on(String channel, String key) {
        return join(subscribers, new Subscription(channel, key), FluxSink.OverflowStrategy.LATEST);
    }

    @Override
    public Flux<Change> every(String channel) {
        return join(watchers, channel, FluxSink.OverflowStrategy.BUFFER);
    }

    /** A subscriber among {@code registry}'s sinks for {@code key} while it is subscribed. */
    private static <K> Flux<Change> join(Map<K, Set<FluxSink<Change>>> registry, K key, FluxSink.OverflowStrategy overflow) {
        return Flux.create(sink -> {
            registry.compute(key, (any, sinks) -> {
                Set<FluxSink<Change>> joined = sinks == null ? ConcurrentHashMap.newKeySet() : sinks;
                joined.add(sink);
                return joined;
            });
            sink.onDispose(() -> registry.computeIfPresent(key, (any, sinks) -> {
                sinks.remove(sink);
                return sinks.isEmpty() ? null : sinks;
            }));
        }, overflow);
    }

    /** Streams currently subscribed (for metrics). */
    public int subscriberCount() {
        return subscribers.values().stream().mapToInt(Set::size).sum();
    }

    @Override
    public void close() {
        listening.dispose();
    }
}
