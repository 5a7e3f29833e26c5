package org.agentplatform.infra.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalDatabaseTest {

    @Test
    void jdbcUrlWithExplicitCredentials() {
        DatabaseEndpoint endpoint = ExternalDatabase.parse("jdbc:postgresql://db.internal:6543/platform?sslmode=require",
                "svc", "s3cret").endpoint();
        assertThat(endpoint).isEqualTo(new DatabaseEndpoint("db.internal", 6543, "platform", "svc", "s3cret",
                Map.of("sslmode", "require")));
        assertThat(endpoint.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6543/platform?sslmode=require");
    }

    @Test
    void libpqUrlCarriesItsOwnCredentialsAndDefaultPort() {
        DatabaseEndpoint endpoint = ExternalDatabase.parse("postgres://app:p%40ss@localhost/agents", null, null).endpoint();
        assertThat(endpoint.port()).isEqualTo(5432);
        assertThat(endpoint.user()).isEqualTo("app");
        assertThat(endpoint.password()).isEqualTo("p@ss");
        assertThat(endpoint.database()).isEqualTo("agents");
    }

    @Test
    void explicitSettingsWinOverTheUrl() {
        DatabaseEndpoint endpoint = ExternalDatabase.parse("postgresql://app:old@localhost/agents", "admin", "new").endpoint();
        assertThat(endpoint.user()).isEqualTo("admin");
        assertThat(endpoint.password()).isEqualTo("new");
    }

    @Test
    void passwordNeverShowsInToString() {
        assertThat(ExternalDatabase.parse("postgresql://localhost/x", "u", "hunter2").endpoint().toString()).doesNotContain("hunter2");
    }

    @Test
    void otherSchemesAreRefused() {
        assertThatThrownBy(() -> ExternalDatabase.parse("mysql://localhost/x", null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
