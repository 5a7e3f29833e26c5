package org.agentplatform.infra.eventstore;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.axonframework.eventhandling.ErrorContext;
import org.axonframework.eventhandling.ErrorHandler;
import org.axonframework.eventhandling.PropagatingErrorHandler;

/**
 * The processors' error handler: a batch that failed (a failure that was not parked, see {@link ProcessorDeadLetters}) is
 * rolled back and retried as before, and remembered, so that health can tell a processor that keeps failing.
 */
public final class ProcessorFailures implements ErrorHandler {

    /** A processor with this many failed batches in {@link #WINDOW}, the last one recent, cannot make progress. */
    static final int FAILING = 3;
    static final Duration WINDOW = Duration.ofSeconds(30);
    static final Duration RECENT = Duration.ofSeconds(10);

    private final Map<String, ConcurrentLinkedDeque<Long>> failures = new ConcurrentHashMap<>();

    @Override
    public void handleError(ErrorContext context) throws Exception {
        ConcurrentLinkedDeque<Long> times = failures.computeIfAbsent(context.eventProcessor(), name -> new ConcurrentLinkedDeque<>());
        times.addLast(System.nanoTime());
        while (times.size() > FAILING * 4) {
            times.pollFirst();
        }
        PropagatingErrorHandler.instance().handleError(context);
    }

    /** Why the processor counts as failing now, or null. */
    public String failing(String processor) {
        ConcurrentLinkedDeque<Long> times = failures.get(processor);
        if (times == null || times.isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        long last = times.peekLast();
        long inWindow = times.stream().filter(at -> now - at <= WINDOW.toNanos()).count();
        return now - last <= RECENT.toNanos() && inWindow >= FAILING
                ? "failing: " + inWindow + " batches failed in the last " + WINDOW.toSeconds() + " s and are retried"
                : null;
    }
}
