package org.agentplatform.infra.audit;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agentplatform.api.audit.ChainVerification;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** {@link ChainVerification} by {@link AuditVerifier#verifyStore}, off the event loop, one at a time on this node. */
final class StoreVerification implements ChainVerification {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean();

    StoreVerification(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Override
    public Mono<Result> verify() {
        return Mono.defer(() -> {
            if (!running.compareAndSet(false, true)) {
                return Mono.empty();
            }
            return Mono.fromCallable(() -> {
                        AuditVerifier.Result result = AuditVerifier.verifyStore(jdbc);
                        return new Result(result.checked(), result.mismatch().orElse(null), clock.instant());
                    })
                    .subscribeOn(Schedulers.boundedElastic())
                    .doFinally(signal -> running.set(false));
        });
    }
}
