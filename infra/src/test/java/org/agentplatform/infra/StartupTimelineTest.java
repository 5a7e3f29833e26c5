package org.agentplatform.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agentplatform.infra.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service started as an operator starts it tells where its start-up went, one line per phase in the order they
 * happen: the embedded database (its duration), the migrations (their duration, the schema's version), HTTP listening and
 * the node ready with every event processor running (each with the time since the JVM started).
 */
class StartupTimelineTest {

    /** A key-value pair as the plain log writes it after the message: {@code key="value"}. */
    private static final Pattern KEY_VALUE = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    @TempDir
    Path home;

    @Test
    void startUpIsToldPhaseByPhase() throws Exception {
        try (ServiceProcess service = ServiceProcess.start("timeline", home.resolve("node"), "--agent-platform.control.real-x=false")) {
            List<String> phases = List.of("embedded PostgreSQL started", "start-up: migrations done", "start-up: HTTP listening",
                    "start-up: ready");
            List<Map<String, String>> told = new ArrayList<>();
            for (String line : Files.readAllLines(service.log())) {
                phases.stream().filter(phase -> line.contains(": " + phase)).findFirst().ifPresent(phase -> {
                    Map<String, String> values = new HashMap<>(Map.of("phase", phase));
                    Matcher value = KEY_VALUE.matcher(line);
                    while (value.find()) {
                        values.put(value.group(1), value.group(2));
                    }
                    told.add(values);
                });
            }

            assertThat(told).extracting(values -> values.get("phase")).containsExactlyElementsOf(phases);
            assertThat(Long.parseLong(told.get(0).get("duration_ms"))).as("the database's start").isPositive();
            assertThat(Long.parseLong(told.get(1).get("duration_ms"))).as("the migrations' duration").isNotNegative();
            assertThat(told.get(1).get("schema_version")).as("the schema's version").isNotBlank();
            assertThat(Long.parseLong(told.get(2).get("since_start_ms"))).isLessThanOrEqualTo(Long.parseLong(told.get(3).get("since_start_ms")));
            assertThat(told.get(3).get("event_processors_running")).as("processors running once ready")
                    .isEqualTo(told.get(3).get("event_processors")).isNotEqualTo("0");
        }
    }
}
