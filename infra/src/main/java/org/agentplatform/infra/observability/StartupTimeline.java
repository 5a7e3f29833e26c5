package org.agentplatform.infra.observability;

import java.lang.management.ManagementFactory;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;

/**
 * Start-up told phase by phase, each line with its duration and the time since the JVM started ({@code since_start_ms}):
 * the schema's migrations, the HTTP server once it listens, and the node ready with its event processors running (the
 * embedded database tells its own start). An operator sees where a slow start went without a profiler.
 */
public final class StartupTimeline implements FlywayMigrationStrategy {

    private static final Logger log = LoggerFactory.getLogger(StartupTimeline.class);

    /** Asked for only once the node is ready: the migrations run before Axon's configuration may be made. */
    private final ObjectProvider<EventProcessingConfiguration> processing;
    private volatile long httpAtMillis;

    public StartupTimeline(ObjectProvider<EventProcessingConfiguration> processing) {
        this.processing = processing;
    }

    /** Runs the migrations, and tells how long they took and where the schema stands. */
    @Override
    public void migrate(Flyway flyway) {
        long began = System.nanoTime();
        MigrateResult result = flyway.migrate();
        log.atInfo().addKeyValue("duration_ms", (System.nanoTime() - began) / 1_000_000).addKeyValue("since_start_ms", sinceStart())
                .addKeyValue("applied", result.migrationsExecuted).addKeyValue("schema_version", result.targetSchemaVersion)
                .log("start-up: migrations done");
    }

    @EventListener
    void listening(WebServerInitializedEvent event) {
        httpAtMillis = sinceStart();
        log.atInfo().addKeyValue("port", event.getWebServer().getPort()).addKeyValue("since_start_ms", httpAtMillis)
                .log("start-up: HTTP listening");
    }

    @EventListener
    void ready(ApplicationReadyEvent event) {
        var processors = processing.getObject().eventProcessors().values();
        long now = sinceStart();
        log.atInfo().addKeyValue("since_start_ms", now).addKeyValue("after_http_ms", httpAtMillis > 0 ? now - httpAtMillis : null)
                .addKeyValue("event_processors_running", processors.stream().filter(EventProcessor::isRunning).count())
                .addKeyValue("event_processors", processors.size()).log("start-up: ready");
    }

    /** Milliseconds since the JVM started. */
    private static long sinceStart() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }
}
