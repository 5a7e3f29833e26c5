package org.agentplatform.infra.observability;

import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/** Health (public, with database readiness) and metrics (for authenticated callers). */
class OperationsHttpTest extends ApiTest {

    @Test
    void healthIsPublicAndReportsTheDatabases() {
        http.get().uri("/actuator/health").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.status").isEqualTo("UP")
                .jsonPath("$.components.db.status").isEqualTo("UP")
                .jsonPath("$.components.db.details.database").isEqualTo("PostgreSQL");
    }

    @Test
    void readinessIncludesTheDatabase() {
        http.get().uri("/actuator/health/readiness").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP")
                .jsonPath("$.components.db.status").isEqualTo("UP")
                .jsonPath("$.components.eventProcessors.status").isEqualTo("UP");
    }

    @Test
    void metricsNeedACredential() {
        assertError(http.get().uri("/actuator/metrics").exchange(), 401, "unauthorized", "");
        http.get().uri("/actuator/metrics/http.server.requests").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk();
        http.get().uri("/actuator/prometheus").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey())
                .exchange().expectStatus().isOk();
    }
}
