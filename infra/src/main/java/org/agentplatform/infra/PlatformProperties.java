package org.agentplatform.infra;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Every setting of the service, under {@code agent-platform.*} (environment: {@code AGENT_PLATFORM_*}).
 * The defaults run a complete single node with nothing installed: see README and docs/decisions.md.
 *
 * @param dataDir          where the embedded database, the first API key and other local state live
 * @param database         an external PostgreSQL; when {@code url} is empty the embedded one is used
 * @param embeddedPostgres how the embedded PostgreSQL runs
 * @param jwt              an external identity provider whose RS256 JWTs are accepted besides the built-in ones
 * @param identity         the built-in identity: token issuer and default quotas
 */
@ConfigurationProperties("agent-platform")
public record PlatformProperties(
        @DefaultValue("./data") Path dataDir,
        @DefaultValue Database database,
        @DefaultValue EmbeddedPostgresSettings embeddedPostgres,
        @DefaultValue ExternalJwt jwt,
        @DefaultValue Identity identity) {

    /** {@code AGENT_PLATFORM_DATABASE_URL}, {@code _USER}, {@code _PASSWORD}. */
    public record Database(String url, String user, String password) {

        public boolean isConfigured() {
            return url != null && !url.isBlank();
        }

        @Override
        public String toString() {
            return "Database[url=" + url + ", user=" + user + "]";
        }
    }

    /**
     * @param binariesDir  where the PostgreSQL binaries are unpacked; empty: the system temp directory
     * @param port         0 picks a free port on 127.0.0.1
     * @param durable      fsync and synchronous commit (only throwaway test clusters turn this off)
     */
    public record EmbeddedPostgresSettings(
            Path binariesDir,
            @DefaultValue("0") int port,
            @DefaultValue("true") boolean durable,
            @DefaultValue("100") int maxConnections,
            @DefaultValue("60s") Duration startTimeout) {

        public Path binariesRoot() {
            return binariesDir != null ? binariesDir : Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres");
        }
    }

    /** {@code AGENT_PLATFORM_JWT_JWKS_URI}, {@code _ISSUER}, {@code _AUDIENCE}: an external issuer, off when the URI is empty. */
    public record ExternalJwt(String jwksUri, String issuer, String audience, @DefaultValue("5s") Duration jwksTimeout) {

        public boolean isConfigured() {
            return jwksUri != null && !jwksUri.isBlank();
        }
    }

    /**
     * @param issuer                          {@code iss} of the tokens the login endpoint issues
     * @param audience                        their {@code aud}
     * @param tokenTtl                        their lifetime
     * @param defaultKeyRateLimitPerMinute    quota of a key created without {@code rate_limit_per_minute}
     * @param jwtRateLimitPerMinute           per-endpoint quota of a JWT session
     */
    public record Identity(
            @DefaultValue("agent-platform") String issuer,
            @DefaultValue("agent-platform-api") String audience,
            @DefaultValue("1h") Duration tokenTtl,
            @DefaultValue("600") int defaultKeyRateLimitPerMinute,
            @DefaultValue("600") int jwtRateLimitPerMinute) {
    }
}
