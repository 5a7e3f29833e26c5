package org.agentplatform.api.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.agentplatform.infra.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/** A key's {@code rate_limit_per_minute} holds per key and per endpoint. */
class KeyQuotaHttpTest extends ApiTest {

    @Test
    void overTheQuotaIsRateLimitedWithRetryAfter() {
        String key = createKey(Map.of("name", "tiny quota", "rate_limit_per_minute", 2));
        providers(key).expectStatus().isOk().expectHeader().valueEquals("X-RateLimit-Remaining", "1");
        providers(key).expectStatus().isOk().expectHeader().valueEquals("X-RateLimit-Remaining", "0");
        var refused = providers(key);
        refused.expectHeader().value(HttpHeaders.RETRY_AFTER, seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 61));
        assertError(refused, 429, "rate_limited", "");
    }

    @Test
    void quotaIsPerEndpoint() {
        String key = createKey(Map.of("name", "per endpoint", "rate_limit_per_minute", 1));
        providers(key).expectStatus().isOk();
        assertError(providers(key), 429, "rate_limited", "");
        http.get().uri("/api/v1/api-keys").header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange().expectStatus().isOk();
    }

    @Test
    void quotaIsPerKey() {
        String exhausted = createKey(Map.of("name", "exhausted", "rate_limit_per_minute", 1));
        String other = createKey(Map.of("name", "other", "rate_limit_per_minute", 1));
        providers(exhausted).expectStatus().isOk();
        assertError(providers(exhausted), 429, "rate_limited", "");
        providers(other).expectStatus().isOk();
    }

    @Test
    void idsInPathsShareTheirEndpointsQuota() {
        String key = createKey(Map.of("name", "path ids", "rate_limit_per_minute", 1));
        http.delete().uri("/api/v1/api-keys/00000000-0000-0000-0000-000000000001")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange().expectStatus().isNotFound();
        assertError(http.delete().uri("/api/v1/api-keys/00000000-0000-0000-0000-000000000002")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange(), 429, "rate_limited", "");
    }

    private WebTestClient.ResponseSpec providers(String key) {
        return http.get().uri("/api/v1/providers").header(HttpHeaders.AUTHORIZATION, "Bearer " + key).exchange();
    }
}
