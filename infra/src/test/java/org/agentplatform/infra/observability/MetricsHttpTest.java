package org.agentplatform.infra.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.infra.support.PlatformClient;
import org.agentplatform.infra.support.WebhookReceiver;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;

/** The application's metrics at /actuator/prometheus move with what the platform does. */
class MetricsHttpTest extends ApiTest {

    @Test
    void tasksCommandsTurnsWebhooksStreamsAndLagAreMeasured() {
        PlatformClient owner = platform();
        String agent = owner.createAgent(owner.runningInstance("linux"), "measured-" + UUID.randomUUID());
        String before = prometheus();
        String after;
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String task = owner.task(agent, Map.of("message", "count me\n/echo take_ms=1500",
                    "webhooks", List.of(Map.of("url", receiver.url("/hook"))))).at("/data/task_id").asString();
            Disposable stream = http.get().uri("/api/v1/agents/{a}/tasks/{t}/events", agent, task)
                    .header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).accept(MediaType.TEXT_EVENT_STREAM)
                    .exchange().returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() { }).getResponseBody()
                    .subscribe();
            try {
                PlatformClient.await(this::prometheus, text -> value(text, "agent_platform_sse_streams", "stream=\"task\"") >= 1,
                        "an open task stream counted");
            } finally {
                stream.dispose();
            }
            owner.awaitTask(agent, task, "completed");
            receiver.await("/hook", 3);
            // awaited while the receiver still answers: an attempt is counted once its answer arrived, after the callback
            after = PlatformClient.await(this::prometheus,
                    text -> value(text, "agent_platform_webhook_attempts_seconds_count", "outcome=\"succeeded\"")
                            >= value(before, "agent_platform_webhook_attempts_seconds_count", "outcome=\"succeeded\"") + 3,
                    "three webhook attempts counted");
        }
        assertThat(value(after, "agent_platform_tasks_accepted_total", "")).isGreaterThan(value(before, "agent_platform_tasks_accepted_total", ""));
        assertThat(value(after, "agent_platform_tasks_finished_total", "status=\"completed\""))
                .isGreaterThan(value(before, "agent_platform_tasks_finished_total", "status=\"completed\""));
        assertThat(value(after, "agent_platform_turns_seconds_count", "outcome=\"replied\""))
                .isGreaterThan(value(before, "agent_platform_turns_seconds_count", "outcome=\"replied\""));
        assertThat(value(after, "agent_platform_commands_seconds_count", "command=\"CreateTask\",outcome=\"success\""))
                .isGreaterThan(value(before, "agent_platform_commands_seconds_count", "command=\"CreateTask\",outcome=\"success\""));
        assertThat(value(after, "agent_platform_processor_lag_events", "processor=\"task-projection\"")).isGreaterThanOrEqualTo(0);
        assertThat(value(after, "agent_platform_dead_letters", "processor=\"task-projection\"")).isZero();
        assertThat(after).as("the reads the event store's reader put off").containsPattern("(?m)^agent_platform_events_reads_paced_total \\S+$");
        assertThat(after).as("no ceiling on task creates: the test contexts never count their node saturated")
                .containsPattern("(?m)^agent_platform_tasks_admission_ceiling \\+Inf$");
        PlatformClient.await(this::prometheus, text -> value(text, "agent_platform_sse_streams", "stream=\"task\"") == 0,
                "the closed stream no longer counted");
    }

    private String prometheus() {
        return http.get().uri("/actuator/prometheus").header(HttpHeaders.AUTHORIZATION, "Bearer " + firstKey()).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    /** The sample of {@code metric} whose labels contain {@code labels} (0 when absent). */
    private static double value(String exposition, String metric, String labels) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(metric) + "(\\{[^}]*})? (\\S+)$").matcher(exposition);
        while (sample.find()) {
            if (sample.group(1) == null ? labels.isEmpty() : sample.group(1).contains(labels)) {
                return Double.parseDouble(sample.group(2));
            }
        }
        return 0;
    }
}
