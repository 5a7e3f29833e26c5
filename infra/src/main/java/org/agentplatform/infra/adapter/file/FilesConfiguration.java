package org.agentplatform.infra.adapter.file;

import java.time.Clock;
import javax.crypto.SecretKey;
import org.agentplatform.infra.adapter.secret.ErasableContent;
import org.agentplatform.infra.platform.PlatformProperties;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** Files: the object store ({@code local} by default, or S3-compatible) behind the presigned URLs. */
@Configuration(proxyBeanMethods = false)
public class FilesConfiguration {

    @Bean
    ObjectStore objectStore(PlatformProperties properties, SecretKey vaultKey, Clock clock) {
        return objectStoreOf(properties, vaultKey, clock);
    }

    /** The owners' files over the configured object store, for a command outside the service ({@code owners erase}). */
    public static ErasableContent ownerFiles(JdbcTemplate jdbc, PlatformProperties properties, SecretKey vaultKey, PersonalContent content,
            Clock clock) {
        return new PlatformFiles(jdbc, objectStoreOf(properties, vaultKey, clock), properties.files(), content, clock);
    }

    private static ObjectStore objectStoreOf(PlatformProperties properties, SecretKey vaultKey, Clock clock) {
        PlatformProperties.Files files = properties.files();
        return files.isS3()
                ? new S3ObjectStore(files.s3(), clock)
                : new LocalObjectStore(properties.dataDir().resolve("objects"), new UrlSigner(vaultKey));
    }

    @Bean
    PlatformFiles platformFiles(JdbcTemplate jdbc, ObjectStore objectStore, PlatformProperties properties, PersonalContent content,
            Clock clock) {
        return new PlatformFiles(jdbc, objectStore, properties.files(), content, clock);
    }
}
