package org.agentplatform.infra.adapter.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.RSAKey;
import io.netty.channel.ChannelOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.crypto.SecretKey;
import org.agentplatform.api.auth.TrustedIssuer;
import org.agentplatform.api.identity.AccessTokenIssuer;
import org.agentplatform.api.identity.IdentitySettings;
import org.agentplatform.infra.platform.PlatformProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;

/**
 * The built-in identity ("main gateway" facts shipped for the single node): users, keys, the RS256
 * issuer and its JWKS, plus an optional external issuer ({@code AGENT_PLATFORM_JWT_JWKS_URI}).
 */
@Configuration(proxyBeanMethods = false)
public class IdentityConfiguration {

    private static final Duration CLOCK_SKEW = Duration.ofSeconds(30);

    @Bean
    PostgresIdentityStore identityStore(DatabaseClient database) {
        return new PostgresIdentityStore(database);
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return passwords();
    }

    /** Argon2id with Spring Security's 5.8 parameters (16 MiB, 2 passes). */
    public static PasswordEncoder passwords() {
        return Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8();
    }

    @Bean
    IdentitySettings identitySettings(PlatformProperties properties) {
        return new IdentitySettings(properties.identity().defaultKeyRateLimitPerMinute(),
                properties.identity().jwtRateLimitPerMinute(), properties.identity().credentialCacheTtl());
    }

    @Bean
    @DependsOnDatabaseInitialization
    RSAKey tokenSigningKey(JdbcTemplate jdbc, SecretKey vaultKey, Clock clock) {
        return SigningKeys.current(jdbc, vaultKey, clock);
    }

    @Bean
    PlatformSigner platformSigner(RSAKey tokenSigningKey) {
        return new PlatformSigner(tokenSigningKey);
    }

    @Bean
    AccessTokenIssuer accessTokenIssuer(PlatformSigner platformSigner, PlatformProperties properties, Clock clock) {
        PlatformProperties.Identity identity = properties.identity();
        return new BuiltInTokenIssuer(platformSigner, identity.issuer(), identity.audience(), identity.tokenTtl(), clock);
    }

    @Bean
    TrustedIssuer builtInIssuer(RSAKey tokenSigningKey, PlatformProperties properties, Clock clock) throws JOSEException {
        PlatformProperties.Identity identity = properties.identity();
        NimbusReactiveJwtDecoder decoder = NimbusReactiveJwtDecoder.withPublicKey(tokenSigningKey.toRSAPublicKey())
                .signatureAlgorithm(SignatureAlgorithm.RS256)
                .build();
        JwtTypeValidator type = new JwtTypeValidator("JWT");
        type.setAllowEmpty(false);
        decoder.setJwtValidator(validators(identity.issuer(), identity.audience(), type, clock));
        return new TrustedIssuer(identity.issuer(), decoder, true);
    }

    @Bean
    @ConditionalOnProperty(prefix = "agent-platform.jwt", name = "jwks-uri")
    TrustedIssuer externalIssuer(PlatformProperties properties, Clock clock) {
        PlatformProperties.ExternalJwt jwt = properties.jwt();
        if (jwt.issuer() == null || jwt.issuer().isBlank()) {
            throw new IllegalStateException("AGENT_PLATFORM_JWT_JWKS_URI is set: AGENT_PLATFORM_JWT_ISSUER must name its issuer");
        }
        if (jwt.issuer().equals(properties.identity().issuer())) {
            throw new IllegalStateException("The external JWT issuer must differ from the built-in issuer " + jwt.issuer());
        }
        HttpClient http = HttpClient.create()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) jwt.jwksTimeout().toMillis())
                .responseTimeout(jwt.jwksTimeout());
        NimbusReactiveJwtDecoder decoder = NimbusReactiveJwtDecoder.withJwkSetUri(jwt.jwksUri())
                .jwsAlgorithm(SignatureAlgorithm.RS256)
                .webClient(WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build())
                .build();
        // RFC 9068 access tokens say at+jwt; an identity provider that sets no typ is accepted too
        JwtTypeValidator type = new JwtTypeValidator("JWT", "at+jwt", "application/at+jwt");
        type.setAllowEmpty(true);
        decoder.setJwtValidator(validators(jwt.issuer(), jwt.audience(), type, clock));
        return new TrustedIssuer(jwt.issuer(), decoder, false);
    }

    /** Type, an {@code exp} that is present and not past (30 s skew), {@code nbf}, issuer and (when configured) audience. */
    private static OAuth2TokenValidator<Jwt> validators(String issuer, String audience, JwtTypeValidator type, Clock clock) {
        JwtTimestampValidator timestamps = new JwtTimestampValidator(CLOCK_SKEW);
        timestamps.setClock(clock);
        List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>(List.of(
                type, new JwtClaimValidator<Object>(JwtClaimNames.EXP, Objects::nonNull), timestamps, new JwtIssuerValidator(issuer)));
        if (audience != null && !audience.isBlank()) {
            validators.add(new JwtAudienceValidator(audience));
        }
        return new DelegatingOAuth2TokenValidator<>(validators);
    }

    @Bean
    FirstStartBanner firstStart(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, Clock clock, PlatformProperties properties) {
        return new FirstStartBanner(() -> new FirstStart(jdbc, new TransactionTemplate(transactionManager), clock)
                .ensure(properties.identity().defaultKeyRateLimitPerMinute(), properties.dataDir()), properties.dataDir());
    }
}
