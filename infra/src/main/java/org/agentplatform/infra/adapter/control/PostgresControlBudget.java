package org.agentplatform.infra.adapter.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.agentplatform.api.control.ControlBudget;
import org.agentplatform.kernel.identity.OwnerId;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * The control budget in PostgreSQL: a GCRA per (owner, bucket) decided by one statement (an upsert that moves the
 * theoretical arrival time only when it admits), so concurrent requests on any node never admit more than the
 * budget. With rate r per minute the emission interval is T = 60 s / r and the burst r, so a request at t is
 * admitted when max(tat, t) + T <= t + 60 s, and then tat becomes max(tat, t) + T. Time is the service's clock.
 */
public final class PostgresControlBudget implements ControlBudget {

    private static final long MICROS_PER_SECOND = 1_000_000;
    private static final long WINDOW = 60 * MICROS_PER_SECOND;
    private static final String DECIDE = "INSERT INTO control_budget AS b (owner_id, bucket, tat, admitted) VALUES (:owner, :bucket, :now + :t, TRUE)"
            + " ON CONFLICT (owner_id, bucket) DO UPDATE SET"
            + " admitted = GREATEST(b.tat, :now) + :t <= :now + :window,"
            + " tat = CASE WHEN GREATEST(b.tat, :now) + :t <= :now + :window THEN GREATEST(b.tat, :now) + :t ELSE b.tat END"
            + " RETURNING tat, admitted";

    private final DatabaseClient database;
    private final Clock clock;
    private final Duration timeout;

    /** @param timeout how long the store may take before the decision fails (and the request answers 503) */
    public PostgresControlBudget(DatabaseClient database, Clock clock, Duration timeout) {
        this.database = database;
        this.clock = clock;
        this.timeout = timeout;
    }

    @Override
    public Mono<Decision> take(OwnerId owner, Bucket bucket) {
        Instant instant = clock.instant();
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, instant);
        long interval = WINDOW / bucket.perMinute();
        return database.sql(DECIDE)
                .bind("owner", owner.value())
                .bind("bucket", bucket.wireName())
                .bind("now", now)
                .bind("t", interval)
                .bind("window", WINDOW)
                .map(row -> decision(bucket, now, interval, row.get("tat", Long.class), Boolean.TRUE.equals(row.get("admitted", Boolean.class))))
                .one()
                .timeout(timeout);
    }

    @Override
    public Mono<Decision> left(OwnerId owner, Bucket bucket) {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
        long interval = WINDOW / bucket.perMinute();
        return database.sql("SELECT tat FROM control_budget WHERE owner_id = :owner AND bucket = :bucket")
                .bind("owner", owner.value())
                .bind("bucket", bucket.wireName())
                .map(row -> row.get("tat", Long.class))
                .one()
                .defaultIfEmpty(now)
                // the decision a take would get now, the arrival time left where it is
                .map(tat -> decision(bucket, now, interval, tat, Math.max(tat, now) + interval <= now + WINDOW))
                .timeout(timeout);
    }

    /** The decision, the remaining budget and the times to wait, from the arrival time the statement left. */
    static Decision decision(Bucket bucket, long now, long interval, long tat, boolean admitted) {
        int remaining = (int) Math.max(0, Math.min(bucket.perMinute(), Math.floorDiv(now + WINDOW - tat, interval)));
        long retryAfter = admitted ? 0 : seconds(tat + interval - WINDOW - now);
        return new Decision(admitted, bucket.perMinute(), admitted ? remaining : 0, Math.max(admitted ? 0 : 1, retryAfter),
                seconds(tat - now));
    }

    private static long seconds(long micros) {
        return micros <= 0 ? 0 : Math.ceilDiv(micros, MICROS_PER_SECOND);
    }
}
