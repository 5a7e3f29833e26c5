package org.agentplatform.infra.adapter.quota;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.agentplatform.api.quota.KeyQuotas;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The per-key quotas in PostgreSQL, shared by every node: a GCRA bucket per (subject, endpoint, limit) with
 * continuous refill and a burst of the per-minute limit, moved by one statement on the database's clock.
 *
 * <p>A node does not go to the store for every request: it leases up to one second of the subject's budget at once
 * (one permit for limits up to 60 a minute, so those are exact) and spends it locally for at most a second; what it
 * leased and did not spend is lost, never given twice. A refusal is remembered until the store said a permit comes
 * back, so a client hammering an exhausted key costs no statement. Concurrent requests that find the local lease
 * empty share one statement. When the store fails or does not answer in time, the request is admitted and the node
 * falls back to leasing itself one second of budget per second (a per-node limit) until the store answers again.
 */
public final class PostgresKeyQuotas implements KeyQuotas {

    private static final Logger log = LoggerFactory.getLogger(PostgresKeyQuotas.class);
    private static final long MICROS_PER_SECOND = 1_000_000;
    private static final long WINDOW = 60 * MICROS_PER_SECOND;
    private static final long LEASE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int SHARED_ROUNDS = 3;
    private static final String TAKE = "WITH clock AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now)"
            + " INSERT INTO key_quota AS q (bucket, tat, granted, seen) SELECT :bucket, now + :want * :t, :want, now FROM clock"
            + " ON CONFLICT (bucket) DO UPDATE SET"
            + " granted = LEAST(:want, (EXCLUDED.seen + :window - GREATEST(q.tat, EXCLUDED.seen)) / :t),"
            + " tat = GREATEST(q.tat, EXCLUDED.seen) + LEAST(:want, (EXCLUDED.seen + :window - GREATEST(q.tat, EXCLUDED.seen)) / :t) * :t,"
            + " seen = EXCLUDED.seen"
            + " RETURNING tat, granted, seen";

    private final DatabaseClient database;
    private final Duration timeout;
    private final ConcurrentMap<Key, Bucket> buckets = new ConcurrentHashMap<>();
    private final Counter statements;
    private final Counter failures;

    /** @param timeout how long the store may take before the request is admitted on the node's own lease */
    public PostgresKeyQuotas(DatabaseClient database, Duration timeout, MeterRegistry meters) {
        this.database = database;
        this.timeout = timeout;
        this.statements = statements(meters, "answered");
        this.failures = statements(meters, "failed");
    }

    private static Counter statements(MeterRegistry meters, String outcome) {
        return Counter.builder("agent.platform.quota.store.statements").description("Per-key quota decisions taken to the shared store")
                .tag("outcome", outcome).register(meters);
    }

    @Override
    public Mono<Decision> acquire(String subject, String endpoint, int limitPerMinute) {
        return buckets.computeIfAbsent(new Key(subject, endpoint, Math.max(1, limitPerMinute)), Bucket::new).acquire(0);
    }

    /** Forgets the local state of buckets with nothing leased or refused (called by the sweeper). */
    public void forgetIdle() {
        long now = System.nanoTime();
        buckets.values().removeIf(bucket -> bucket.idle(now));
    }

    /** Deletes the stored buckets that are full again (their arrival time has passed); any node may run it. */
    public Mono<Long> deleteFull() {
        return database.sql("DELETE FROM key_quota WHERE tat < (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
                .fetch()
                .rowsUpdated();
    }

    private record Key(String subject, String endpoint, int limit) {
    }

    /** What one statement gave: how many permits, and the bucket's state right after, relative to the store's now. */
    private record Grant(int granted, long remaining, long untilNextMicros) {

        static Grant fallback(int lease) {
            return new Grant(lease, 0, 0);
        }
    }

    private final class Bucket {

        private final byte[] id;
        private final int limit;
        private final long interval;
        private final int lease;

        // guarded by this
        private int left;
        private long leaseEnds;
        private long storeRemaining;
        private long refusedUntil;
        private Mono<Grant> refill;
        private long refills;

        Bucket(Key key) {
            this.id = hash(key.subject() + '\n' + key.endpoint() + '\n' + key.limit());
            this.limit = key.limit();
            this.interval = Math.max(1, WINDOW / key.limit());
            this.lease = Math.max(1, Math.ceilDiv(key.limit(), 60));
            this.leaseEnds = System.nanoTime(); // nanoTime has no zero: "nothing leased, nothing refused" is "ends now"
            this.refusedUntil = leaseEnds;
        }

        Mono<Decision> acquire(int round) {
            return Mono.defer(() -> {
                Mono<Grant> pending;
                synchronized (this) {
                    long now = System.nanoTime();
                    if (left > 0 && now - leaseEnds < 0) {
                        left--;
                        return Mono.just(admitted());
                    }
                    if (now - refusedUntil < 0) {
                        return Mono.just(refused(now));
                    }
                    if (round >= SHARED_ROUNDS) {
                        // outrun by other requests on every shared statement: one of its own decides
                        return take(1).map(grant -> decide(grant, true));
                    }
                    if (refill == null) {
                        long generation = ++refills;
                        refill = take(lease).map(grant -> settle(generation, grant))
                                .doFinally(signal -> forget(generation))
                                .cache();
                    }
                    pending = refill;
                }
                return pending.then(acquire(round + 1));
            });
        }

        /** Records a shared statement's grant for the requests waiting on it; later ones start a statement of their own. */
        private synchronized Grant settle(long generation, Grant grant) {
            forget(generation);
            decide(grant, false);
            return grant;
        }

        /** Forgets the shared statement (answered, failed or abandoned) unless a newer one has started. */
        private synchronized void forget(long generation) {
            if (refills == generation) {
                refill = null;
            }
        }

        /**
         * Records a grant; when {@code own}, the request that asked takes the first permit of it. Permits still leased
         * are kept: statements overlap (a request's own beside a shared one), and a grant that replaced them would lose them.
         */
        private synchronized Decision decide(Grant grant, boolean own) {
            long now = System.nanoTime();
            storeRemaining = grant.remaining();
            int leased = now - leaseEnds < 0 ? left : 0;
            if (grant.granted() == 0) {
                refusedUntil = now + TimeUnit.MICROSECONDS.toNanos(Math.max(1, grant.untilNextMicros()));
                if (own && leased > 0) {
                    left = leased - 1;
                    return admitted();
                }
                left = leased;
                return refused(now);
            }
            left = leased + grant.granted() - (own ? 1 : 0);
            leaseEnds = now + LEASE_NANOS;
            return admitted();
        }

        private Decision admitted() {
            return new Decision(true, limit, (int) Math.min(limit, storeRemaining + left), 0);
        }

        private Decision refused(long now) {
            long seconds = Math.ceilDiv(refusedUntil - now, TimeUnit.SECONDS.toNanos(1));
            return new Decision(false, limit, 0, Math.max(1, seconds));
        }

        synchronized boolean idle(long now) {
            return refill == null && now - leaseEnds >= 0 && now - refusedUntil >= 0;
        }

        private Mono<Grant> take(int want) {
            return database.sql(TAKE)
                    .bind("bucket", id)
                    .bind("want", want)
                    .bind("t", interval)
                    .bind("window", WINDOW)
                    .map(row -> {
                        long tat = row.get("tat", Long.class);
                        long seen = row.get("seen", Long.class);
                        return new Grant(row.get("granted", Integer.class), Math.max(0, (seen + WINDOW - tat) / interval),
                                tat + interval - WINDOW - seen);
                    })
                    .one()
                    .timeout(timeout)
                    .doOnSuccess(answered -> statements.increment())
                    .onErrorResume(failure -> {
                        failures.increment();
                        log.atWarn().setCause(failure).log("the quota store did not answer; admitting on this node's own lease");
                        return Mono.just(Grant.fallback(lease));
                    });
        }
    }

    private static byte[] hash(String name) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8)), 16);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
