package org.agentplatform.infra.cli;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.agentplatform.infra.database.DatabaseConfiguration;
import org.agentplatform.infra.database.DatabaseEndpoint;
import org.agentplatform.infra.database.DatabaseServer;
import org.agentplatform.infra.database.EmbeddedPostgres;
import org.agentplatform.infra.database.ExternalDatabase;
import org.agentplatform.infra.platform.PlatformProperties;
import org.flywaydb.core.Flyway;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a command works on: the configuration as for the service (plus the command line's {@code --name=value}
 * overrides), and the database, migrated: the configured one, a running service's embedded one, or the embedded
 * one started for the command.
 */
final class CliDatabase implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final DatabaseServer server;
    private final HikariDataSource dataSource;

    private CliDatabase(ConfigurableApplicationContext context, DatabaseServer server, HikariDataSource dataSource) {
        this.context = context;
        this.server = server;
        this.dataSource = dataSource;
    }

    static CliDatabase open(List<String> settings) throws IOException {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Settings.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("logging.level.root=warn")
                .run(settings.toArray(String[]::new));
        DatabaseServer server = null;
        try {
            server = server(context.getBean(PlatformProperties.class));
            HikariDataSource dataSource = new HikariDataSource(DatabaseConfiguration.hikari(server.endpoint()));
            Flyway.configure().dataSource(dataSource).load().migrate();
            return new CliDatabase(context, server, dataSource);
        } catch (IOException | RuntimeException failure) {
            if (server != null) {
                server.close();
            }
            context.close();
            throw failure;
        }
    }

    PlatformProperties properties() {
        return context.getBean(PlatformProperties.class);
    }

    HikariDataSource dataSource() {
        return dataSource;
    }

    JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource);
    }

    /** Whether the embedded database was started for this command (so no service is running beside it). */
    boolean startedForThisCommand() {
        return server instanceof EmbeddedPostgres;
    }

    @Override
    public void close() {
        try {
            dataSource.close();
            server.close();
        } finally {
            context.close();
        }
    }

    private static DatabaseServer server(PlatformProperties properties) throws IOException {
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
                embedded.port(), embedded.durable(), embedded.maxConnections(), embedded.startTimeout(), embedded.settings()));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(PlatformProperties.class)
    static class Settings {
    }
}
