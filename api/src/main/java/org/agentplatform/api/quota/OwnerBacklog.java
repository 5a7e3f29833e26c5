package org.agentplatform.api.quota;

import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.task.TaskBacklog;
import org.agentplatform.query.task.TaskReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The bound on an owner's unfinished tasks ({@link BacklogSettings}): a create past it is refused 429
 * {@code rate_limited} with a {@code Retry-After} from the rate at which the owner's tasks have been settling lately.
 * Invokes have their own bound, so a flood of tasks leaves an owner's invokes admitted, and every owner has its own.
 *
 * <p>The count is the task read model's (queued and running tasks, read at most once a second per owner and kind, and
 * again before a refusal when older than {@value #RECHECK_MS} ms) plus the tasks this node admitted that the read model
 * does not show yet, by id: on one node the bound is exact. Another node's admissions count once its read model shows
 * them (milliseconds behind), so a burst spread over nodes may pass the bound by what the read model has not caught up
 * with. A create whose command fails gives its place back ({@link Ticket#release}).
 *
 * <p>Before it is counted here, a task (not an invoke) was held to its owner's share of a saturated node, before its body
 * was read ({@link FairShareFilter}).
 */
public final class OwnerBacklog {

    private static final Logger log = LoggerFactory.getLogger(OwnerBacklog.class);
    /** A count older than this is read again before the next decision. */
    static final long FRESH_MS = 1_000;
    /** A refusal rests on a count at most this old. */
    static final long RECHECK_MS = 100;
    /** An admitted task the read model has not shown for this long no longer counts (its create failed where no one saw it). */
    static final long PENDING_PATIENCE_MS = Duration.ofMinutes(1).toMillis();
    /** The Retry-After when none of the owner's tasks settled lately (its instance may be stopped). */
    static final long IDLE_RETRY_AFTER_SECONDS = 60;
    static final long MAX_RETRY_AFTER_SECONDS = 3_600;
    /** A count not used for this long is forgotten ({@link #forgetIdle}). */
    static final long IDLE_MS = Duration.ofMinutes(10).toMillis();

    private final TaskReads tasks;
    private final BacklogSettings settings;
    private final Clock clock;
    private final ConcurrentMap<Key, Count> counts = new ConcurrentHashMap<>();

    public OwnerBacklog(TaskReads tasks, BacklogSettings settings, Clock clock) {
        this.tasks = tasks;
        this.settings = settings;
        this.clock = clock;
    }

    /** What a task is, for its bound. */
    public enum Work {
        TASKS,
        INVOKES
    }

    /** An admitted task's place in its owner's backlog. */
    public interface Ticket {

        /** The task's create failed: its place is free again. */
        void release();
    }

    /** Admits task {@code task} of {@code owner}, or fails with the 429 {@code rate_limited} refusal. */
    public Mono<Ticket> admit(OwnerId owner, Work work, TaskId task) {
        return counts.computeIfAbsent(new Key(owner, work), Count::new).admit(task, 0);
    }

    /** Forgets the counts nobody asked about for a while (the sweeper calls this). */
    public void forgetIdle() {
        long now = clock.millis();
        counts.values().removeIf(count -> count.idle(now));
    }

    private record Key(OwnerId owner, Work work) {
    }

    private final class Count {

        private final Key key;
        private final int limit;

        // guarded by this
        private long unfinished;
        private long readAt = Long.MIN_VALUE;
        private long latestChange = Long.MAX_VALUE;
        /** Tasks settled per second lately; negative until measured. */
        private double settledPerSecond = -1;
        /** Admitted here, not shown by the read model yet: when each was admitted. */
        private final Map<TaskId, Long> pending = new LinkedHashMap<>();
        private Mono<Void> reading;
        private long usedAt;

        Count(Key key) {
            this.key = key;
            this.limit = key.work() == Work.INVOKES ? settings.maxUnfinishedInvokes() : settings.maxUnfinishedTasks();
        }

        Mono<Ticket> admit(TaskId task, int round) {
            return Mono.defer(() -> {
                Mono<Void> read;
                synchronized (this) {
                    long now = clock.millis();
                    usedAt = now;
                    forgetLost(now);
                    boolean stale = readAt == Long.MIN_VALUE || now - readAt >= FRESH_MS;
                    boolean unsure = isFull() && now - readAt >= RECHECK_MS;
                    if (round > 0 || !(stale || unsure)) {
                        return decide(task, now);
                    }
                    read = read(now);
                }
                return read.then(admit(task, round + 1));
            });
        }

        private boolean isFull() {
            return unfinished + pending.size() >= limit;
        }

        private Mono<Ticket> decide(TaskId task, long now) {
            if (!isFull()) {
                pending.put(task, now);
                return Mono.just(() -> release(task));
            }
            long total = unfinished + pending.size();
            long retryAfter = retryAfterSeconds(total - limit + 1);
            String what = key.work() == Work.INVOKES ? "invokes" : "tasks";
            return Mono.error(new ApiException(ErrorCode.RATE_LIMITED, "This owner has " + total + " unfinished " + what + ", at most "
                    + limit + " are accepted; retry after " + retryAfter + "s", "", Map.of("limit", Integer.toString(limit), "unfinished",
                    Long.toString(total), "retry_after_seconds", Long.toString(retryAfter)), retryAfter));
        }

        /** How long until {@code excess} of the owner's tasks settle at the recent rate. */
        private long retryAfterSeconds(long excess) {
            if (settledPerSecond <= 0) {
                return IDLE_RETRY_AFTER_SECONDS;
            }
            return Math.clamp((long) Math.ceil(excess / settledPerSecond), 1, MAX_RETRY_AFTER_SECONDS);
        }

        private synchronized void release(TaskId task) {
            pending.remove(task);
        }

        /** The read of the count, shared by the requests that need it meanwhile. */
        private Mono<Void> read(long now) {
            if (reading == null) {
                List<TaskId> asked = List.copyOf(pending.keySet());
                long since = latestChange;
                reading = tasks.backlog(key.owner(), key.work() == Work.INVOKES, since, asked)
                        .doOnNext(backlog -> settle(backlog, now))
                        .onErrorResume(failure -> {
                            log.atWarn().addKeyValue("owner_id", key.owner().toString()).setCause(failure)
                                    .log("the owner's backlog could not be read; deciding on the last count");
                            return Mono.empty();
                        })
                        .then()
                        .doFinally(signal -> readDone())
                        .cache();
            }
            return reading;
        }

        private synchronized void readDone() {
            reading = null;
        }

        private synchronized void settle(TaskBacklog backlog, long readStartedAt) {
            if (latestChange != Long.MAX_VALUE && readAt != Long.MIN_VALUE && readStartedAt > readAt) {
                double measured = backlog.endedSince() * 1000.0 / (readStartedAt - readAt);
                settledPerSecond = settledPerSecond < 0 ? measured : (settledPerSecond + measured) / 2;
            }
            unfinished = backlog.unfinished();
            backlog.shown().forEach(pending::remove);
            latestChange = backlog.latestChange();
            readAt = readStartedAt;
        }

        /**
         * Forgets the admitted tasks the read model has not shown for {@value #PENDING_PATIENCE_MS} ms: from the oldest on
         * (the map keeps them in admission order), so a create pays for those it forgets, not for every one still pending
         * (a burst leaves thousands pending while the read model catches up).
         */
        private void forgetLost(long now) {
            Iterator<Long> oldest = pending.values().iterator();
            while (oldest.hasNext() && now - oldest.next() >= PENDING_PATIENCE_MS) {
                oldest.remove();
            }
        }

        synchronized boolean idle(long now) {
            return reading == null && pending.isEmpty() && now - usedAt >= IDLE_MS;
        }
    }
}
