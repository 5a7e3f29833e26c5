package org.agentplatform.api.quota;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each owner's share of what the node carries: the node keeps a ceiling on the task creates it admits a second, found
 * from its own saturation ({@link Congestion}) the way a congestion window is, and while several owners share the node
 * it is divided between them max-min fair (weighted): an owner asking for less than its share gets all it asks for, and
 * what it leaves goes to the others in proportion to their weights (the fair order's); when they all ask for less than
 * the ceiling and the node is at its edge, none may take more than the others leave of it. A create from an owner
 * already admitted faster than its share is refused 429 {@code rate_limited}, {@code Retry-After}
 * {@value #RETRY_AFTER_SECONDS} s. A flood from one owner then gets what the others leave of what the node carries, no
 * more (the node stays below the edge, and the others' tasks do not wait behind the flood in every stage it passes
 * through) and no less (it is not refused outright while the node has room). An owner alone on the node is never
 * refused here (it shares with no one; its backlog has its own bound, {@link OwnerBacklog}), nor is an invoke or a
 * conversation's message (interactive work, bounded apart).
 *
 * <p>While several owners share the node, it counts as saturated also once the machine's CPU pressure
 * ({@link Congestion#cpuPressure}) reaches {@code sharedPressure}, and has room only below {@value #PRESSURE_ROOM} of it:
 * at the processors' edge every request waits for a core much of the time, a neighbour's invoke too, so a flood beside a
 * neighbour is held below the edge (trading some of the flood's throughput for the neighbour's latency); an owner alone
 * gets all the node carries.
 *
 * <p>The ceiling: unknown (none) until the node first saturates. At most every {@value #ADJUST_MS} ms, while the node is
 * saturated and its lag is not shrinking, it is cut to {@value #CUT} of the rate the node admitted then, if that is lower
 * (so it compounds while it holds the creates, and does not while it holds none, an owner alone), unless the creates were
 * well below it (under {@value #CUT} of it: other work saturated the node, and a ceiling cut to a trickle of creates would
 * hold the next flood at that trickle while it climbs back); while the node has room
 * and the admissions press on it ({@value #PRESSED} of it or more), it grows by {@value #PROBE} of itself (at least
 * {@value #MIN_PROBE} a second), probing for more. At the node's edge, and while the lag shrinks after a cut, it holds.
 *
 * <p>An owner's demand is its creates, admitted or refused, decayed with a half-life of {@value #DEMAND_HALF_LIFE_MS} ms (a
 * refused owner still asks, so its share does not wither while it is refused); its pace, the one held against its share,
 * is its admissions decayed with a half-life of {@value #PACE_HALF_LIFE_MS} ms, so a share is kept within about a seventh
 * of a second's worth of creates, and a flood's first creates are admitted no faster than that (at 250 ms, a third of a
 * second's worth: some 50 creates at once at a ceiling of 150 a second, four events each for the processors). The owners
 * sharing the node are those asking for {@value #SHARING_PER_SECOND} a second or more (a single create keeps its owner
 * among them for some three seconds). The shares are taken again at most every {@value #TOTAL_MS} ms, by whichever
 * create needs them first. An owner idle for a minute is forgotten.
 */
public final class FairShare {

    private static final Logger log = LoggerFactory.getLogger(FairShare.class);

    /** An owner's demand halves in this long without creates. */
    static final long DEMAND_HALF_LIFE_MS = 500;
    /** An owner's pace (its admissions, held against its share) halves in this long without admissions. */
    static final long PACE_HALF_LIFE_MS = 100;
    /** Creates a second below which an owner is not counted among those sharing the node. */
    static final double SHARING_PER_SECOND = 0.01;
    static final long RETRY_AFTER_SECONDS = 1;
    /** How long the shares are used before they are taken again. */
    static final long TOTAL_MS = 100;
    /** The ceiling moves at most this often. */
    static final long ADJUST_MS = 500;
    /** A saturated node's ceiling becomes this much of the rate it admitted. */
    static final double CUT = 0.7;
    /** A node with room whose admissions press on the ceiling raises it by this much of itself. */
    static final double PROBE = 0.05;
    /** The least a probe raises the ceiling by, in creates a second. */
    static final double MIN_PROBE = 5;
    /** The admissions press on the ceiling at this much of it. */
    static final double PRESSED = 0.9;
    /** The ceiling never goes below this many creates a second. */
    static final double MIN_CEILING = 5;
    /** While several owners share the node, it has room only below this much of the pressure it is held under. */
    static final double PRESSURE_ROOM = 0.85;
    /** An owner with no create for this long is forgotten ({@link #forgetIdle}): a minute. */
    static final long FORGOTTEN_AFTER_MS = 60_000;
    private static final long LOG_INTERVAL_MS = 60_000;

    private final Congestion congestion;
    private final ToIntFunction<OwnerId> weights;
    private final double sharedPressure;
    private final Clock clock;
    private final ConcurrentMap<OwnerId, Owner> owners = new ConcurrentHashMap<>();
    private final AtomicBoolean taking = new AtomicBoolean();
    private volatile Shares shares = new Shares(Long.MIN_VALUE, 0, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    // the ceiling's state: guarded by taking
    private double ceiling = Double.POSITIVE_INFINITY;
    private long adjustedAt = Long.MIN_VALUE;
    private long lagAtAdjust;
    private long loggedAt = Long.MIN_VALUE;

    /**
     * @param weights        an owner's weight (1 or more)
     * @param sharedPressure the CPU pressure (0 to 1) at which the node counts as saturated while several owners share it;
     *                       0 never (checked where it is configured, {@code agent-platform.tasks.shared-cpu-pressure})
     */
    public FairShare(Congestion congestion, ToIntFunction<OwnerId> weights, double sharedPressure, Clock clock) {
        this.congestion = congestion;
        this.weights = weights;
        this.sharedPressure = sharedPressure;
        this.clock = clock;
    }

    /** Admits a task of {@code owner} and counts it, or answers why not (the 429 to give) without counting it as admitted. */
    public @Nullable ApiException refusal(OwnerId owner) {
        long now = clock.millis();
        Owner asking = owners.computeIfAbsent(owner, ignored -> new Owner(weights.applyAsInt(owner), now));
        asking.demand.add(now);
        Shares share = shares(now);
        double allowed = share.level() * asking.weight;
        if (share.sharing() >= 2 && asking.pace.perSecond(now) > allowed) {
            return new ApiException(ErrorCode.RATE_LIMITED, String.format(
                    "The platform is at capacity: this node carries about %.0f task creates a second, shared by %d owners, and this owner"
                            + " creates tasks faster than its share of them (%.0f a second); retry after %ds",
                    share.ceiling(), share.sharing(), allowed, RETRY_AFTER_SECONDS),
                    "", Map.of("retry_after_seconds", Long.toString(RETRY_AFTER_SECONDS)), RETRY_AFTER_SECONDS);
        }
        asking.pace.add(now);
        return null;
    }

    /** The node's ceiling on task creates a second; infinite until the node first saturated. */
    public double ceiling() {
        return shares.ceiling();
    }

    /**
     * Forgets the owners with no create for {@value #FORGOTTEN_AFTER_MS} ms (the backlog's sweeper calls this). An owner
     * returning at that very moment may have that one create uncounted.
     */
    public void forgetIdle() {
        long now = clock.millis();
        owners.values().removeIf(owner -> owner.idle(now));
    }

    /** The shares, taken again when older than {@value #TOTAL_MS} ms by one of the creates that find them so. */
    private Shares shares(long now) {
        Shares taken = shares;
        if (taken.at() != Long.MIN_VALUE && now - taken.at() < TOTAL_MS || !taking.compareAndSet(false, true)) {
            return taken;
        }
        try {
            double admitted = 0;
            List<Asking> sharing = new ArrayList<>();
            for (Owner owner : owners.values()) {
                admitted += owner.pace.perSecond(now);
                double demand = owner.demand.perSecond(now);
                if (demand >= SHARING_PER_SECOND) {
                    sharing.add(new Asking(demand, owner.weight));
                }
            }
            Congestion.State state = sharing.size() >= 2 ? shared(congestion.state()) : congestion.state();
            adjust(now, admitted, state);
            // with room, a burst from owners asking for less than the ceiling together passes whole; at the edge it does not
            taken = new Shares(now, sharing.size(), level(ceiling, sharing, state == Congestion.State.ROOM), ceiling);
            shares = taken;
            return taken;
        } finally {
            taking.set(false);
        }
    }

    /** The node's state while several owners share it: saturated also at the CPU pressure held to, with room only well below it. */
    private Congestion.State shared(Congestion.State byLag) {
        double pressure = congestion.cpuPressure();
        if (sharedPressure == 0 || Double.isNaN(pressure) || byLag == Congestion.State.SATURATED) {
            return byLag;
        }
        if (pressure >= sharedPressure) {
            return Congestion.State.SATURATED;
        }
        return byLag == Congestion.State.ROOM && pressure >= PRESSURE_ROOM * sharedPressure ? Congestion.State.EDGE : byLag;
    }

    /** Moves the ceiling by what the node says of its saturation now, at most every {@value #ADJUST_MS} ms. */
    private void adjust(long now, double admitted, Congestion.State state) {
        if (adjustedAt != Long.MIN_VALUE && now - adjustedAt < ADJUST_MS) {
            return;
        }
        long lag = congestion.lag();
        if (state == Congestion.State.SATURATED) {
            // creates well below the ceiling did not saturate the node: it is not theirs to pay for
            if (lag >= lagAtAdjust && (Double.isInfinite(ceiling) || admitted >= CUT * ceiling)) {
                double before = ceiling;
                ceiling = Math.max(MIN_CEILING, Math.min(ceiling, CUT * admitted));
                if (loggedAt == Long.MIN_VALUE || now - loggedAt >= LOG_INTERVAL_MS) {
                    loggedAt = now;
                    log.atInfo().addKeyValue("ceiling_per_second", Math.round(ceiling))
                            .addKeyValue("before_per_second", Double.isInfinite(before) ? "none" : Long.toString(Math.round(before)))
                            .addKeyValue("admitted_per_second", Math.round(admitted)).addKeyValue("lag_events", lag)
                            .addKeyValue("cpu_pressure", String.format(Locale.ROOT, "%.2f", congestion.cpuPressure()))
                            .log("node saturated: task creates shared between owners up to a lower ceiling");
                }
            }
        } else if (state == Congestion.State.ROOM && !Double.isInfinite(ceiling) && admitted >= PRESSED * ceiling) {
            ceiling += Math.max(MIN_PROBE, PROBE * ceiling);
        }
        log.atDebug().addKeyValue("ceiling_per_second", ceiling).addKeyValue("admitted_per_second", Math.round(admitted))
                .addKeyValue("lag", lag).addKeyValue("cpu_pressure", congestion.cpuPressure()).addKeyValue("state", state)
                .log("admission ceiling");
        lagAtAdjust = lag;
        adjustedAt = now;
    }

    /**
     * The share a unit of weight gets of {@code ceiling}, max-min fair: the owners asking for less than theirs get what they
     * ask for, the rest divide what is left by weight. When all of them together ask for no more than the ceiling, the
     * level is infinite while the node has {@code room}, and otherwise what the others leave to the one asking most (for
     * its weight): each gets what it asks for, and none more than the ceiling leaves it. So a flood starting beside a
     * neighbour is held to the ceiling as soon as the node is at its edge, not only once its demand (a decayed rate, which
     * lags its arrivals by a fraction of a second) says it asks for more, while a burst on a node with room passes.
     * Infinite with no ceiling.
     */
    static double level(double ceiling, List<Asking> sharing, boolean room) {
        if (Double.isInfinite(ceiling) || sharing.isEmpty()) {
            return Double.POSITIVE_INFINITY;
        }
        sharing.sort(Comparator.comparingDouble(asking -> asking.demand() / asking.weight()));
        double left = ceiling;
        long weightLeft = 0;
        for (Asking asking : sharing) {
            weightLeft += asking.weight();
        }
        for (Asking asking : sharing) {
            if (asking.demand() * weightLeft > left * asking.weight()) {
                return left / weightLeft;
            }
            if (weightLeft == asking.weight()) {
                return room ? Double.POSITIVE_INFINITY : left / weightLeft;
            }
            left -= asking.demand();
            weightLeft -= asking.weight();
        }
        throw new AssertionError("the last owner asking returns its level");
    }

    /** What the creates of one sharing owner ask for, a second, and its weight. */
    record Asking(double demand, int weight) {
    }

    /** The shares taken at {@code at}: how many owners share the node, a unit of weight's share, and the ceiling. */
    private record Shares(long at, int sharing, double level, double ceiling) {
    }

    /** One owner's creates: all of them (its demand) and those admitted (its pace). */
    private static final class Owner {

        final int weight;
        final Rate demand;
        final Rate pace;

        Owner(int weight, long now) {
            this.weight = weight;
            this.demand = new Rate(DEMAND_HALF_LIFE_MS, now);
            this.pace = new Rate(PACE_HALF_LIFE_MS, now);
        }

        boolean idle(long now) {
            return demand.idle(now);
        }
    }

    /** Events a second, decayed: {@code value} as of {@code at}. */
    private static final class Rate {

        private final long halfLife;
        private final double perSecond;
        // guarded by this
        private double value;
        private long at;

        /** A rate as of {@code now}, with no event yet. */
        Rate(long halfLife, long now) {
            this.halfLife = halfLife;
            this.perSecond = Math.log(2) * 1000.0 / halfLife;
            this.at = now;
        }

        synchronized void add(long now) {
            value = valueAt(now) + 1;
            at = Math.max(at, now);
        }

        synchronized double perSecond(long now) {
            return valueAt(now) * perSecond;
        }

        synchronized boolean idle(long now) {
            return now - at >= FORGOTTEN_AFTER_MS;
        }

        private double valueAt(long now) {
            return now <= at ? value : value * Math.pow(0.5, (now - at) / (double) halfLife);
        }
    }
}
