package org.agentplatform.infra.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Gives each Spring test context its own database on the shared test server, and its own data directory. */
public final class FreshDatabase implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        DatabaseEndpoint database = TestPostgres.get().createDatabase();
        Path dataDir;
        try {
            dataDir = Files.createTempDirectory("agent-platform-test-data");
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        TestPropertyValues.of(
                "agent-platform.database.url=" + database.jdbcUrl(),
                "agent-platform.database.user=" + database.user(),
                "agent-platform.database.password=" + database.password(),
                "agent-platform.data-dir=" + dataDir)
                .applyTo(context);
    }
}
