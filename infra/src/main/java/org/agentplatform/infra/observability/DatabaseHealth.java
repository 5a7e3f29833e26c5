package org.agentplatform.infra.observability;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * Whether the database answers ({@code db}, part of readiness): one {@code SELECT 1} that must answer within the time
 * box, or DOWN, and for the embedded PostgreSQL its supervisor's word (DOWN while it is being started again, with how
 * often it was, and why it last stopped).
 */
public final class DatabaseHealth implements ReactiveHealthIndicator {

    private final DatabaseClient database;
    private final Optional<EmbeddedPostgres> embedded;
    private final Duration box;

    public DatabaseHealth(DatabaseClient database, DatabaseServer server, Duration box) {
        this.database = database;
        this.embedded = server instanceof EmbeddedPostgres postgres ? Optional.of(postgres) : Optional.empty();
        this.box = box;
    }

    @Override
    public Mono<Health> health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("database", "PostgreSQL");
        embedded.ifPresent(postgres -> {
            EmbeddedPostgres.State state = postgres.state();
            details.put("embedded", state.serving() ? "serving" : "being started again");
            details.put("restarts", state.restarts());
            if (state.lastExit() != null) {
                details.put("last_exit", state.lastExit());
            }
        });
        if (embedded.isPresent() && !embedded.get().state().serving()) {
            return Mono.just(Health.down().withDetails(details).build());
        }
        return database.sql("SELECT 1 AS alive").map(row -> row.get("alive", Integer.class)).one()
                .map(alive -> Health.up().withDetails(details).build())
                .timeout(box, Mono.fromSupplier(() -> Health.down().withDetails(details)
                        .withDetail("error", "no answer within " + box.toMillis() + " ms").build()))
                .onErrorResume(failure -> Mono.just(Health.down(failure).withDetails(details).build()));
    }
}
