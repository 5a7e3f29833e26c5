package org.agentplatform.infra.eventstore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;
import org.axonframework.eventhandling.ErrorContext;
import org.axonframework.eventhandling.ErrorHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The processors' error handler: a batch that failed (a failure that was not parked, see {@link ProcessorDeadLetters}) is
 * rolled back and retried as before, and remembered with the first event it held, so that health can tell a processor
 * that keeps failing.
 *
 * <p>A processor keeps failing from its {@link #FAILING}th failed batch on events it has not passed since, until it passes
 * them (its stored tokens say so, whichever node processed them: {@link StoredTokens}). Not until some seconds pass
 * without a failure: Axon releases a failed segment for 1, 2, 4 ... up to 60 s before it tries again, so a processor that
 * fails every try is silent for longer and longer, and a rule of time said UP between its tries. Failures older than
 * {@link #RETRIED_WITHIN} without a later one are forgotten: a segment still failing here would have failed again by
 * then (one no longer held here, or stopped, is judged by the processor's progress instead).
 */
public final class ProcessorFailures implements ErrorHandler {

    /** A processor with this many failed batches on events it has not passed cannot make progress. */
    static final int FAILING = 3;
    /** Longer than Axon's longest wait before it retries a failed segment (60 s). */
    static final Duration RETRIED_WITHIN = Duration.ofSeconds(75);
    /** Failures held per processor: enough to count {@link #FAILING} among those not yet passed. */
    private static final int HELD = FAILING * 4;

    /** A failed batch: when, and the lowest global index among its events (-1 when none was tracked). */
    private record Failure(Instant at, long event) {
    }

    private final Clock clock;
    private final Function<String, StoredTokens.Progress> progress;
    private final Map<String, ConcurrentLinkedDeque<Failure>> failures = new ConcurrentHashMap<>();

    public ProcessorFailures(JdbcTemplate jdbc, Clock clock) {
        this(clock, processor -> StoredTokens.progress(jdbc, processor));
    }

    /** {@code progress}: how far a processor's segments have got, as stored. */
    ProcessorFailures(Clock clock, Function<String, StoredTokens.Progress> progress) {
        this.clock = clock;
        this.progress = progress;
    }

    @Override
    public void handleError(ErrorContext context) throws Exception {
        ConcurrentLinkedDeque<Failure> held = failures.computeIfAbsent(context.eventProcessor(), name -> new ConcurrentLinkedDeque<>());
        held.addLast(new Failure(clock.instant(), firstEvent(context)));
        while (held.size() > HELD) {
            held.pollFirst();
        }
        PropagatingErrorHandler.instance().handleError(context);
    }

    private static long firstEvent(ErrorContext context) {
        long first = Long.MAX_VALUE;
        for (EventMessage<?> event : context.failedEvents()) {
            if (event instanceof TrackedEventMessage<?> tracked) {
                OptionalLong position = tracked.trackingToken().position();
                if (position.isPresent()) {
                    first = Math.min(first, position.getAsLong());
                }
            }
        }
        return first == Long.MAX_VALUE ? -1 : first;
    }

    /**
     * Why the processor counts as failing now, or null. Reads the processor's stored tokens while it has failures on
     * record (only then): those it has passed since are forgotten.
     */
    public String failing(String processor) {
        ConcurrentLinkedDeque<Failure> held = failures.get(processor);
        if (held == null || held.isEmpty()) {
            return null;
        }
        Failure last = held.peekLast();
        if (last == null) {
            return null;
        }
        if (last.at().isBefore(clock.instant().minus(RETRIED_WITHIN))) {
            // those up to the last one read, not all: a failure recorded since is a new try, counted afresh
            held.removeIf(failure -> !failure.at().isAfter(last.at()));
            return null;
        }
        StoredTokens.Progress passed = progress.apply(processor);
        held.removeIf(failure -> failure.event() >= 0 && passed.passed(failure.event()));
        int count = held.size();
        return count >= FAILING
                ? "failing: " + count + " batches failed on events it has not passed since (retried with back-off, up to a minute apart)"
                : null;
    }
}
