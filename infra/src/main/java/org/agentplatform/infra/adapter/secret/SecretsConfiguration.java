package org.agentplatform.infra.adapter.secret;

import java.time.Clock;
import javax.crypto.SecretKey;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/** The vault: webhook secrets and tokens, sealed under the vault key, never in the event store. */
@Configuration(proxyBeanMethods = false)
public class SecretsConfiguration {

    @Bean
    SecretKey vaultKey(PlatformProperties properties) {
        return VaultKey.resolve(properties.secrets().key(), properties.dataDir());
    }

    @Bean
    SecretVault secretVault(DatabaseClient database, SecretKey vaultKey, Clock clock) {
        return new SecretVault(database, vaultKey, clock);
    }
}
