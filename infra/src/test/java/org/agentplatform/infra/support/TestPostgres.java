package org.agentplatform.infra.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.agentplatform.infra.database.ExternalDatabase;
import org.springframework.boot.SpringApplication;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The one PostgreSQL server of a test JVM, chosen once: an explicit server
 * ({@code AGENT_PLATFORM_TEST_DATABASE_URL}, {@code _USER}, {@code _PASSWORD}), else a Testcontainers
 * PostgreSQL when a Docker engine answers, else the embedded PostgreSQL the service itself uses
 * (non-durable, in a temp directory). Each Spring context gets a fresh database on it.
 */
public final class TestPostgres {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static volatile TestPostgres instance;

    private final DatabaseEndpoint admin;
    private final String kind;

    private TestPostgres(DatabaseEndpoint admin, String kind) {
        this.admin = admin;
        this.kind = kind;
    }

    public static TestPostgres get() {
        TestPostgres current = instance;
        if (current == null) {
            synchronized (TestPostgres.class) {
                current = instance;
                if (current == null) {
                    current = start();
                    instance = current;
                }
            }
        }
        return current;
    }

    private static TestPostgres start() {
        String url = System.getenv("AGENT_PLATFORM_TEST_DATABASE_URL");
        if (url != null && !url.isBlank()) {
            return new TestPostgres(ExternalDatabase.parse(url, System.getenv("AGENT_PLATFORM_TEST_DATABASE_USER"),
                    System.getenv("AGENT_PLATFORM_TEST_DATABASE_PASSWORD")).endpoint(), "explicit server");
        }
        if (dockerAnswers()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine");
            container.start();
            closeAfterSpringContexts(container::stop);
            return new TestPostgres(new DatabaseEndpoint(container.getHost(), container.getFirstMappedPort(),
                    container.getDatabaseName(), container.getUsername(), container.getPassword(), Map.of()), "Testcontainers");
        }
        try {
            Path dataDir = Files.createTempDirectory("agent-platform-test-pg");
            EmbeddedPostgres server = EmbeddedPostgres.start(dataDir, new EmbeddedPostgres.Options(
                    Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres"), 0, false, 400,
                    Duration.ofSeconds(60)));
            closeAfterSpringContexts(() -> {
                server.close();
                deleteQuietly(dataDir);
            });
            return new TestPostgres(server.endpoint(), "embedded");
        } catch (IOException failure) {
            throw new UncheckedIOException("Cannot start the embedded PostgreSQL for tests", failure);
        }
    }

    private static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError noDocker) {
            return false;
        }
    }

    /** Spring Boot runs its shutdown handlers after it has closed every context, so no context loses its database first. */
    private static void closeAfterSpringContexts(Runnable close) {
        SpringApplication.getShutdownHandlers().add(close);
    }

    public DatabaseEndpoint admin() {
        return admin;
    }

    public String kind() {
        return kind;
    }

    /** A new, empty database on the shared server. */
    public DatabaseEndpoint createDatabase() {
        String name = "test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        execute("CREATE DATABASE " + name);
        return admin.withDatabase(name);
    }

    /** Runs administrative SQL (outside any test database) on the shared server. */
    public void execute(String sql) {
        try (Connection connection = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password());
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException failure) {
            throw new IllegalStateException("Failed: " + sql, failure);
        }
    }

    private static void deleteQuietly(Path directory) {
        try (var walk = Files.walk(directory)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; the OS cleans up what is left
        }
    }
}
