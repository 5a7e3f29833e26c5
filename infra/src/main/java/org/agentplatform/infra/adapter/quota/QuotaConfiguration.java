package org.agentplatform.infra.adapter.quota;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.PeriodicJob;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/** Per-key quotas and login throttles in the shared store, and the sweep that forgets full buckets. */
@Configuration(proxyBeanMethods = false)
public class QuotaConfiguration {

    /** Longer than this and the request is admitted on the node's own lease rather than held. */
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(2);

    @Bean
    PostgresKeyQuotas keyQuotas(DatabaseClient database, MeterRegistry meters) {
        return new PostgresKeyQuotas(database, STORE_TIMEOUT, meters);
    }

    @Bean
    PeriodicJob quotaSweeper(PostgresKeyQuotas quotas, BackgroundPriority background) {
        return new PeriodicJob("quota-sweeper", Duration.ofMinutes(1), () -> {
            quotas.forgetIdle();
            quotas.deleteFull().block(STORE_TIMEOUT.multipliedBy(5));
        }, background);
    }
}
