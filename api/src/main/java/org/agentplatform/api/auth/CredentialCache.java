package org.agentplatform.api.auth;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import reactor.core.publisher.Mono;

/**
 * Credentials found in the store, remembered for a short while so that a request costs no query for its
 * credential: a key revoked on this node is forgotten at once, on another node within {@code ttl}.
 * Unknown credentials are not remembered (a guesser cannot fill the cache), and the cache is emptied
 * when it holds more than {@code capacity} entries.
 */
public final class CredentialCache {

    private final Duration ttl;
    private final int capacity;
    private final Map<Object, Entry> entries = new ConcurrentHashMap<>();

    private record Entry(Object value, long expiresAtNanos) {
    }

    public CredentialCache(Duration ttl, int capacity) {
        this.ttl = ttl;
        this.capacity = capacity;
    }

    /** The remembered value for {@code key}, else {@code lookup}'s (remembered when there is one). */
    @SuppressWarnings("unchecked")
    <T> Mono<T> get(Object key, Mono<T> lookup) {
        Entry entry = entries.get(key);
        if (entry != null && entry.expiresAtNanos() - System.nanoTime() > 0) {
            return Mono.just((T) entry.value());
        }
        return lookup.doOnNext(found -> remember(key, found));
    }

    private void remember(Object key, Object value) {
        if (ttl.isZero()) {
            return;
        }
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, new Entry(value, System.nanoTime() + ttl.toNanos()));
    }

    /** Forgets every remembered value that {@code matches}. */
    public void forget(Predicate<Object> matches) {
        entries.values().removeIf(entry -> matches.test(entry.value()));
    }

    /** The key of an API key hash (arrays compare by identity). */
    static Object keyHash(byte[] hash) {
        return ByteBuffer.wrap(hash.clone());
    }
}
