package org.agentplatform.query.feed;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * One LISTEN connection per node, fanned out to every live stream of the node. Notifications only
 * wake streams; the rows they then read are the truth, so a notification lost while reconnecting
 * costs latency, not data (streams also re-read on a timer).
 */
public final class ChangeFeed implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChangeFeed.class);

    private final Sinks.Many<Change> changes = Sinks.many().multicast().directBestEffort();
    private final Disposable listening;

    /** A notification: its channel and payload. */
    public record Change(String channel, String payload) {
    }

    public ChangeFeed(PostgresqlConnectionFactory connections, List<String> channels) {
        this.listening = Mono.usingWhen(connections.create(), connection -> listen(connection, channels), PostgresqlConnection::close)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5))
                        .doBeforeRetry(signal -> log.atWarn().setCause(signal.failure()).log("change feed reconnecting")))
                .subscribe();
    }

    private Mono<Void> listen(PostgresqlConnection connection, List<String> channels) {
        Flux<Void> subscribe = Flux.fromIterable(channels)
                .concatMap(channel -> connection.createStatement("LISTEN " + channel).execute().flatMap(result -> result.getRowsUpdated()))
                .thenMany(Flux.empty());
        return subscribe
                .thenMany(connection.getNotifications())
                .doOnNext(notification -> changes.tryEmitNext(new Change(notification.getName(), notification.getParameter())))
                .then(Mono.error(new IllegalStateException("LISTEN connection closed")));
    }

    /** Notifications on {@code channel} whose payload starts with {@code prefix}. */
    public Flux<Change> on(String channel, String prefix) {
        return changes.asFlux().filter(change -> change.channel().equals(channel) && change.payload().startsWith(prefix));
    }

    @Override
    public void close() {
        listening.dispose();
    }
}
