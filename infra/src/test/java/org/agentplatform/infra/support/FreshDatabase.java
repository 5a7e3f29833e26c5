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
 * saturated, by its lag or by the machine's CPU pressure, unless the test class says otherwise.
 */
public final class FreshDatabase implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final String SATURATION = "agent-platform.tasks.saturation-lag-events";
    private static final String PRESSURE = "agent-platform.tasks.shared-cpu-pressure";

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
        // machine running the tests is (how far its processors fall behind, how long its work waits for a core), which
        // only the test of it (FairShareHttpTest, which sets its own lag) is to meet
        for (String judgement : new String[] {SATURATION, PRESSURE}) {
            if (context.getEnvironment().getProperty(judgement) == null) {
                TestPropertyValues.of(judgement + "=0").applyTo(context);
            }
        }
        // registered before any bean, so destroyed after all of them: nothing writes to the directory any more
        ((DefaultSingletonBeanRegistry) context.getBeanFactory()).registerDisposableBean(FreshDatabase.class.getName() + ".dataDir",
                () -> FileSystemUtils.deleteRecursively(dataDir));
    }
}
