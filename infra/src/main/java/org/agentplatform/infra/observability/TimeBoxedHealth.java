package org.agentplatform.infra.observability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;

/**
 * A blocking health check answered within a time box: its answer, DOWN with its failure, or DOWN when it has not
 * answered in time (a database that is gone makes a connection wait far longer than a load balancer's probe). A check
 * still running is shared by the probes that come meanwhile, so slow checks never pile up.
 */
public final class TimeBoxedHealth implements ReactiveHealthIndicator {

    private final HealthIndicator check;
    private final Duration box;
    private final Executor executor;
    private CompletableFuture<Health> running;

    public TimeBoxedHealth(HealthIndicator check, Duration box, Executor executor) {
        this.check = check;
        this.box = box;
        this.executor = executor;
    }

    @Override
    public Mono<Health> health() {
        CompletableFuture<Health> answer;
        synchronized (this) {
            if (running == null || running.isDone()) {
                running = CompletableFuture.supplyAsync(this::checkNow, executor);
            }
            answer = running;
        }
        return Mono.fromFuture(answer, true).timeout(box, Mono.fromSupplier(this::tooSlow));
    }

    private Health checkNow() {
        try {
            return check.health();
        } catch (RuntimeException failure) {
            return Health.down(failure).build();
        }
    }

    private Health tooSlow() {
        return Health.down().withDetail("error", "no answer within " + box.toMillis() + " ms").build();
    }
}
