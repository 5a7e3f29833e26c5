package org.agentplatform.infra.cli;

import java.io.IOException;
import java.util.Optional;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.agentplatform.infra.database.ExternalDatabase;

/** The database a command works on: the configured one, a running service's embedded one, or the embedded one started for it. */
final class CliDatabase {

    private CliDatabase() {
    }

    static DatabaseServer open(PlatformProperties properties) throws IOException {
        PlatformProperties.Database database = properties.database();
        if (database.isConfigured()) {
            return ExternalDatabase.parse(database.url(), database.user(), database.password());
        }
        Optional<DatabaseEndpoint> running = EmbeddedPostgres.runningIn(properties.dataDir());
        if (running.isPresent()) {
            return new ExternalDatabase(running.get());
        }
        PlatformProperties.EmbeddedPostgresSettings embedded = properties.embeddedPostgres();
        return EmbeddedPostgres.start(properties.dataDir(), new EmbeddedPostgres.Options(embedded.binariesRoot(),
                embedded.port(), embedded.durable(), embedded.maxConnections(), embedded.startTimeout()));
    }
}
