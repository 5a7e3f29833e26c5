package org.agentplatform.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.server.PathContainer;

class BodyLimitsTest {

    @ParameterizedTest
    @CsvSource({
            "/api/v1/providers, 65536",
            "/api/v1/instances/i1/methods, 65536",
            "/api/v1/api-keys, 65536",
            "/api/v1/agents/a1/skills, 65536",
            "/api/v1/agents/a1/invoke, 1048576",
            "/api/v1/agents/a1/tasks, 1048576",
            "/api/v1/agents/a1/tasks/t1/messages, 1048576",
            "/api/v1/agents/a1/conversations/c1/messages, 1048576",
            "/api/v1/tasks, 1048576",
            "/api/v1/agents/a1/tasks/t1/webhooks, 65536",
            "/api/v1/agents/a1/tasks/t1/webhooks/w1/deliveries/d1/redeliver, 65536"
    })
    void limitFollowsTheRoute(String path, long limit) {
        assertThat(BodyLimits.forPath(PathContainer.parsePath(path))).isEqualTo(limit);
    }
}
