package org.agentplatform.infra.eventstore;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.agentplatform.api.quota.Congestion;
import org.agentplatform.infra.platform.CpuPressure;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * {@link Congestion} from the processors every owner's tasks pass through in one order on this node ({@code watched}: the
 * task dispatcher's hand-off to the runtime, the task projection that reads and streams show): saturated once one of them
 * is {@code high} events or more behind the store's head, until every one is back within a quarter of it; with room while
 * within a quarter of it and not saturated, at the edge between. The lag is the slowest one's as last sampled. {@link #sample}
 * reads the head afresh (one index lookup) and the processors' positions from memory; a node holding no segment of a
 * processor does not count it (the node that holds them sheds its own creates). The machine's CPU pressure is sampled
 * with it ({@link CpuPressure}). While saturated the node says so in its log at most once a minute, with how far behind it
 * was.
 */
public final class ProcessorCongestion implements Congestion {

    private static final Logger log = LoggerFactory.getLogger(ProcessorCongestion.class);
    /** How often the state is read: the reaction time of the shedding. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofMillis(100);
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final EventProcessingConfiguration processing;
    private final StoreHead store;
    private final List<String> watched;
    private final long high;
    private final CpuPressure pressure;
    private final Clock clock;
    private volatile boolean congested;
    private volatile long lag;
    // the sampling thread's own
    private long saturatedSamples;
    private long loggedAt = Long.MIN_VALUE;
    private long unreadLoggedAt = Long.MIN_VALUE;

    /** @param high the lag (events) at which the node counts as saturated; 0 never */
    public ProcessorCongestion(EventProcessingConfiguration processing, StoreHead store, List<String> watched, long high,
            CpuPressure pressure, Clock clock) {
        this.processing = processing;
        this.store = store;
        this.watched = List.copyOf(watched);
        this.high = high;
        this.pressure = pressure;
        this.clock = clock;
    }

    @Override
    public State state() {
        return congested ? State.SATURATED : lag <= high / 4 ? State.ROOM : State.EDGE;
    }

    @Override
    public long lag() {
        return lag;
    }

    @Override
    public double cpuPressure() {
        return pressure.value();
    }

    /** Reads the CPU pressure, and how far behind the watched processors are, and decides whether the node is saturated. */
    public void sample() {
        pressure.sample();
        if (high == 0) {
            return;
        }
        long head;
        try {
            head = store.headNow();
        } catch (DataAccessException unreadable) {
            // the state read last holds; a database that is away fails the creates on its own
            long now = clock.millis();
            if (unreadLoggedAt == Long.MIN_VALUE || now - unreadLoggedAt >= LOG_INTERVAL.toMillis()) {
                unreadLoggedAt = now;
                log.atWarn().setCause(unreadable).log("the event store's head could not be read; whether the node is saturated is not known");
            }
            return;
        }
        long lag = 0;
        String slowest = null;
        for (String name : watched) {
            OptionalLong behind = processing.eventProcessor(name, StreamingEventProcessor.class)
                    .map(processor -> StoreHead.lag(processor, head)).orElse(OptionalLong.empty());
            if (behind.isPresent() && behind.getAsLong() > lag) {
                lag = behind.getAsLong();
                slowest = name;
            }
        }
        this.lag = lag;
        congested = congested ? lag > high / 4 : lag >= high;
        if (congested) {
            saturatedSamples++;
            long now = clock.millis();
            if (loggedAt == Long.MIN_VALUE || now - loggedAt >= LOG_INTERVAL.toMillis()) {
                loggedAt = now;
                log.atInfo().addKeyValue("processor", slowest).addKeyValue("lag_events", lag).addKeyValue("threshold_events", high)
                        .addKeyValue("saturated_samples", saturatedSamples)
                        .log("node saturated: the processors are behind the store");
            }
        }
    }
}
