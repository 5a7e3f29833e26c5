package org.agentplatform.api.quota;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.ToIntFunction;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.jspecify.annotations.Nullable;

/**
 * Each owner's share of a saturated node: while the node says it is saturated ({@link Congestion}), a task create from an
 * owner whose tasks this node has lately admitted faster than its weighted share of all owners' is refused 429
 * {@code rate_limited}, {@code Retry-After} {@value #RETRY_AFTER_SECONDS} s; the others are admitted as before. A flood
 * from one owner then cannot take the node past what it carries: the flooding owner gets what the others leave, and
 * the others' tasks do not wait behind a backlog in every stage the flood passes through. An owner alone on the node is
 * never refused here (it shares with no one; its backlog has its own bound, {@link OwnerBacklog}), nor is an invoke or
 * a conversation's message (interactive work, bounded apart).
 *
 * <p>An owner's rate is its admissions on this node, decayed with a half-life of {@value #HALF_LIFE_MS} ms; the owners
 * sharing the node are those above {@value #SHARING_PER_SECOND} a second, and an owner's share is the sum of their rates
 * times its weight over the sum of their weights (the weights of the fair order of turns). The sum is taken again at
 * most every {@value #TOTAL_MS} ms, and only while the node is saturated. An owner idle for a minute is forgotten.
 */
public final class FairShare {

    /** An owner's admitted rate halves in this long without admissions. */
    static final long HALF_LIFE_MS = 2_000;
    /**
     * Admissions a second below which an owner is not counted among those sharing the node: a single admission keeps
     * its owner among them for about five half-lives, some ten seconds.
     */
    static final double SHARING_PER_SECOND = 0.01;
    static final long RETRY_AFTER_SECONDS = 1;
    /** How long the sum of the rates is used before it is taken again. */
    static final long TOTAL_MS = 100;
    /** An owner with no admission for this long is forgotten ({@link #forgetIdle}). */
    static final long FORGOTTEN_AFTER_MS = 30 * HALF_LIFE_MS;
    private static final double PER_SECOND = Math.log(2) * 1000.0 / HALF_LIFE_MS;

    private final Congestion congestion;
    private final ToIntFunction<OwnerId> weights;
    private final Clock clock;
    private final ConcurrentMap<OwnerId, Rate> rates = new ConcurrentHashMap<>();
    private volatile Shares shares = new Shares(Long.MIN_VALUE, 0, 0, 0);

    /** @param weights an owner's weight (1 or more) */
    public FairShare(Congestion congestion, ToIntFunction<OwnerId> weights, Clock clock) {
        this.congestion = congestion;
        this.weights = weights;
        this.clock = clock;
    }

    /** Admits a task of {@code owner} and counts it, or answers why not (the 429 to give) without counting it. */
    public @Nullable ApiException refusal(OwnerId owner) {
        long now = clock.millis();
        Rate rate = rates.computeIfAbsent(owner, ignored -> new Rate(weights.applyAsInt(owner), now));
        if (congestion.congested()) {
            Shares share = shares(now);
            double own = rate.perSecond(now);
            if (share.sharing() >= 2 && own > share.total() * rate.weight / share.weights()) {
                return new ApiException(ErrorCode.RATE_LIMITED, String.format(
                        "The platform is saturated and this owner creates tasks faster than its share of it (%.0f a second of %.0f,"
                                + " shared by %d owners); retry after %ds", own, share.total(), share.sharing(), RETRY_AFTER_SECONDS),
                        "", Map.of("retry_after_seconds", Long.toString(RETRY_AFTER_SECONDS)), RETRY_AFTER_SECONDS);
            }
        }
        rate.add(now);
        return null;
    }

    /**
     * Forgets the owners with no admission for {@value #FORGOTTEN_AFTER_MS} ms (the backlog's sweeper calls this). An
     * owner returning at that very moment may have that one admission uncounted.
     */
    public void forgetIdle() {
        long now = clock.millis();
        rates.values().removeIf(rate -> rate.idle(now));
    }

    /** The rates summed, taken again when older than {@value #TOTAL_MS} ms (by whichever create needs it first). */
    private Shares shares(long now) {
        Shares taken = shares;
        if (taken.at() != Long.MIN_VALUE && now - taken.at() < TOTAL_MS) {
            return taken;
        }
        double total = 0;
        int sharing = 0;
        long weightSum = 0;
        for (Rate rate : rates.values()) {
            double perSecond = rate.perSecond(now);
            if (perSecond >= SHARING_PER_SECOND) {
                total += perSecond;
                sharing++;
                weightSum += rate.weight;
            }
        }
        taken = new Shares(now, total, sharing, Math.max(1, weightSum));
        shares = taken;
        return taken;
    }

    /** The owners' rates summed at {@code at}: their total, how many share the node, and the sum of their weights. */
    private record Shares(long at, double total, int sharing, long weights) {
    }

    /** An owner's admissions, decayed: {@code value} as of {@code at}. */
    private static final class Rate {

        final int weight;
        // guarded by this
        private double value;
        private long at;

        /** A rate as of {@code now}, with no admission yet. */
        Rate(int weight, long now) {
            this.weight = weight;
            this.at = now;
        }

        synchronized void add(long now) {
            value = valueAt(now) + 1;
            at = now;
        }

        synchronized double perSecond(long now) {
            return valueAt(now) * PER_SECOND;
        }

        synchronized boolean idle(long now) {
            return now - at >= FORGOTTEN_AFTER_MS;
        }

        private double valueAt(long now) {
            return now <= at ? value : value * Math.pow(0.5, (now - at) / (double) HALF_LIFE_MS);
        }
    }
}
