package org.agentplatform.api.web;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import reactor.core.publisher.Flux;

/**
 * How many server-sent event streams are open, by kind ({@code task}, {@code operation}, {@code conversation},
 * {@code inbox}); infra publishes them as a gauge.
 */
public final class OpenStreams {

    public static final String TASK = "task";
    public static final String OPERATION = "operation";
    public static final String CONVERSATION = "conversation";
    public static final String INBOX = "inbox";
    public static final List<String> KINDS = List.of(TASK, OPERATION, CONVERSATION, INBOX);

    private final Map<String, AtomicInteger> open = KINDS.stream()
            .collect(Collectors.toUnmodifiableMap(kind -> kind, kind -> new AtomicInteger()));

    /** The stream, counted from its subscription until it ends, fails or its client goes away. */
    public <T> Flux<T> track(String kind, Flux<T> stream) {
        AtomicInteger count = open.get(kind);
        return stream.doOnSubscribe(subscription -> count.incrementAndGet()).doFinally(signal -> count.decrementAndGet());
    }

    public int open(String kind) {
        return open.get(kind).get();
    }
}
