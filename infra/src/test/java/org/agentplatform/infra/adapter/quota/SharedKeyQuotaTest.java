package org.agentplatform.infra.adapter.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.agentplatform.api.quota.KeyQuotas.Decision;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/** Two nodes' quota deciders on one PostgreSQL share each key's budget; leases never give a permit twice. */
class SharedKeyQuotaTest extends ApiTest {

    @Autowired
    private DatabaseClient database;

    private PostgresKeyQuotas node() {
        return new PostgresKeyQuotas(database, Duration.ofSeconds(5), new SimpleMeterRegistry());
    }

    @Test
    void twoNodesRacingForOneKeyAdmitExactlyItsLimit() {
        PostgresKeyQuotas a = node();
        PostgresKeyQuotas b = node();
        String key = UUID.randomUUID().toString();
        List<Decision> decisions = Flux.range(0, 100)
                .flatMap(index -> (index % 2 == 0 ? a : b).acquire(key, "GET /api/v1/providers", 30).subscribeOn(Schedulers.parallel()), 16)
                .collectList()
                .block();
        assertThat(decisions).filteredOn(Decision::permitted).hasSize(30);
        assertThat(decisions).filteredOn(decision -> !decision.permitted())
                .allSatisfy(refused -> assertThat(refused.retryAfterSeconds()).isBetween(1L, 3L));
    }

    @Test
    void leasedBudgetIsNeverSpentTwice() {
        // 6,000 a minute: each node leases 100 at a time; together they can never pass the burst of 6,000
        PostgresKeyQuotas a = node();
        PostgresKeyQuotas b = node();
        String key = UUID.randomUUID().toString();
        long admitted = Flux.range(0, 7_000)
                .flatMap(index -> (index % 2 == 0 ? a : b).acquire(key, "POST /api/v1/agents/{agentId}/tasks", 6_000), 32)
                .filter(Decision::permitted)
                .count()
                .block();
        assertThat(admitted).isBetween(5_800L, 6_100L); // refills during the run add a few; leases left unspent lose a few
        Long stored = database.sql("SELECT count(*) FROM key_quota").map(row -> row.get(0, Long.class)).one().block();
        assertThat(stored).isPositive();
    }

    @Test
    void anExhaustedBucketIsRefusedOnEveryNodeAndEachLimitIsABucketOfItsOwn() {
        PostgresKeyQuotas a = node();
        String key = UUID.randomUUID().toString();
        List<Boolean> permitted = IntStream.range(0, 5).mapToObj(index -> a.acquire(key, "GET /api/v1/api-keys", 2).block().permitted()).toList();
        assertThat(permitted).containsExactly(true, true, false, false, false);
        assertThat(node().acquire(key, "GET /api/v1/api-keys", 2).block().permitted()).isFalse(); // another node sees the same bucket
        assertThat(node().acquire(key, "GET /api/v1/api-keys", 3).block().permitted()).isTrue(); // another limit, another bucket
    }
}
