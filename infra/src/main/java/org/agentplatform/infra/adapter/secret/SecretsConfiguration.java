package org.agentplatform.infra.adapter.secret;

import java.time.Clock;
import javax.crypto.SecretKey;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The vault: webhook secrets and tokens, sealed under the vault key, never in the event store; and each owner's data
 * keys, which seal its personal content, and their erasure.
 */
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

    @Bean
    OwnerDataKeys ownerDataKeys(JdbcTemplate jdbc, SecretKey vaultKey, Clock clock) {
        return new OwnerDataKeys(jdbc, vaultKey, clock);
    }

    /** What seals and opens the owners' texts: their data keys, or (sealing turned off to measure it) their keys for opening only. */
    @Bean
    @Primary
    PersonalContent personalContent(OwnerDataKeys keys, PlatformProperties properties) {
        if (properties.secrets().sealContent()) {
            return keys;
        }
        return new PersonalContent() {

            @Override
            public String seal(OwnerId owner, String plaintext) {
                return plaintext;
            }

            @Override
            public String open(OwnerId owner, String stored) {
                return keys.open(owner, stored);
            }
        };
    }

    /** {@code files}: the uploaded files' store (an adapter of its own, found by this port). */
    @Bean
    OwnerContentEraser ownerContentEraser(OwnerDataKeys keys, ErasableContent files, EventGateway events,
            PlatformTransactionManager transactions, Clock clock) {
        return new OwnerContentEraser(keys, files, events, new TransactionTemplate(transactions), clock);
    }
}
