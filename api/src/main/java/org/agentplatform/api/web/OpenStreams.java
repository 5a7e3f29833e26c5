package org.agentplatform.api.web;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;

/** How many server-sent event streams are open, by kind ({@code task}, {@code operation}, {@code conversation}); infra publishes them as a gauge. */
public final class OpenStreams {

    public static final String TASK = "task";
    public static final String OPERATION = "operation";
    public static final String CONVERSATION = "conversation";

    private final Map<String, AtomicInteger> open = Map.of(TASK, new AtomicInteger(), OPERATION, new AtomicInteger(), CONVERSATION,
            new AtomicInteger());

    /** The stream, counted from its subscription until it ends, fails or its client goes away. */
    public <T> Flux<T> track(String kind, Flux<T> stream) {
        AtomicInteger count = open.get(kind);
        return stream.doOnSubscribe(subscription -> count.incrementAndGet()).doFinally(signal -> count.decrementAndGet());
    }

    public int open(String kind) {
        return open.get(kind).get();
    }
}
