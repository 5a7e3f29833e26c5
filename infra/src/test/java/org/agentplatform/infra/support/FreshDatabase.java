package org.agentplatform.infra.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

/**
 * Gives each Spring test context its own database on the shared test server, and its own data directory, removed
 * when the context closes (it holds the context's first API key and vault key); and a node that never counts itself
 * saturated, unless the test class says otherwise.
 */
public final class FreshDatabase implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final String SATURATION = "agent-platform.tasks.saturation-lag-events";

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
        // a node that counts itself saturated refuses the busiest owner's creates: a refusal that hangs on how loaded the
        // machine running the tests is, which only the test of it (FairShareHttpTest, which sets its own) is to meet
        if (context.getEnvironment().getProperty(SATURATION) == null) {
            TestPropertyValues.of(SATURATION + "=0").applyTo(context);
        }
        // registered before any bean, so destroyed after all of them: nothing writes to the directory any more
        ((DefaultSingletonBeanRegistry) context.getBeanFactory()).registerDisposableBean(FreshDatabase.class.getName() + ".dataDir",
                () -> FileSystemUtils.deleteRecursively(dataDir));
    }
}
