package org.agentplatform.infra.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.client.SSLMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import javax.sql.DataSource;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * One PostgreSQL, two ways in: JDBC (Axon's stores, projections, Flyway) and R2DBC (the API's reads).
 * With R2DBC on the classpath Spring Boot would not create the JDBC side, so both are declared here.
 */
@Configuration(proxyBeanMethods = false)
public class DatabaseConfiguration {

    @Bean(destroyMethod = "close")
    DatabaseServer databaseServer(PlatformProperties properties) {
        PlatformProperties.Database database = properties.database();
        if (database.isConfigured()) {
            return ExternalDatabase.parse(database.url(), database.user(), database.password());
        }
        PlatformProperties.EmbeddedPostgresSettings embedded = properties.embeddedPostgres();
        try {
            return EmbeddedPostgres.start(properties.dataDir(), new EmbeddedPostgres.Options(
                    embedded.binariesRoot(), embedded.port(), embedded.durable(), embedded.maxConnections(),
                    embedded.startTimeout(), embedded.settings()));
        } catch (IOException failure) {
            throw new UncheckedIOException("Cannot start the embedded PostgreSQL", failure);
        }
    }

    @Bean
    HikariDataSource dataSource(DatabaseServer server, PlatformProperties properties) {
        HikariConfig config = hikari(server.endpoint());
        config.setMaximumPoolSize(properties.database().jdbcPoolSize());
        return new HikariDataSource(config);
    }

    /** The local runtime's pool, committing without waiting for the flush (see {@link RuntimeDatabase}). */
    @Bean(destroyMethod = "close")
    RuntimeDatabase runtimeDatabase(DatabaseServer server, PlatformProperties properties) {
        return RuntimeDatabase.open(server.endpoint(), properties.database().runtimePoolSize());
    }

    /** A small pool (the CLI's); the service sizes its own from {@code agent-platform.database.jdbc-pool-size}. */
    public static HikariConfig hikari(DatabaseEndpoint endpoint) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("jdbc");
        config.setJdbcUrl(endpoint.jdbcUrl());
        config.setUsername(endpoint.user());
        config.setPassword(endpoint.password());
        config.setMaximumPoolSize(10);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
        // a batch of one INSERT's rows (the events of a command, a batch's audit links) goes as one multi-row INSERT
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        return config;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
        return new JdbcTransactionManager(dataSource);
    }

    @Bean(destroyMethod = "dispose")
    ConnectionPool connectionFactory(DatabaseServer server, PlatformProperties properties) {
        return new ConnectionPool(ConnectionPoolConfiguration.builder(new PostgresqlConnectionFactory(r2dbc(server.endpoint())))
                .name("r2dbc")
                .initialSize(1)
                .maxSize(properties.database().r2dbcPoolSize())
                .maxIdleTime(Duration.ofMinutes(10))
                .maxAcquireTime(Duration.ofSeconds(10))
                .build());
    }

    /** R2DBC settings for the endpoint (the pool, and the change feed's own LISTEN connection). */
    public static PostgresqlConnectionConfiguration r2dbc(DatabaseEndpoint endpoint) {
        PostgresqlConnectionConfiguration.Builder connection = PostgresqlConnectionConfiguration.builder()
                .host(endpoint.host())
                .port(endpoint.port())
                .database(endpoint.database())
                .username(endpoint.user())
                .password(endpoint.password())
                .connectTimeout(Duration.ofSeconds(10));
        String sslMode = endpoint.parameters().get("sslmode");
        if (sslMode != null) {
            connection.sslMode(SSLMode.fromValue(sslMode));
        }
        return connection.build();
    }

    @Bean
    DatabaseClient databaseClient(ConnectionPool connectionFactory) {
        return DatabaseClient.create(connectionFactory);
    }
}
