package org.agentplatform.api;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.agentplatform.api.auth.BearerTokenConverter;
import org.agentplatform.api.auth.CallerAuthenticationManager;
import org.agentplatform.api.auth.CredentialCache;
import org.agentplatform.api.auth.CredentialStore;
import org.agentplatform.api.auth.TrustedIssuer;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiErrorHandler;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.agentplatform.api.identity.IdentitySettings;
import org.agentplatform.api.operation.OperationQueue;
import org.agentplatform.api.operation.OperationSettings;
import org.agentplatform.api.operation.OperationStream;
import org.agentplatform.api.operation.SecretSealer;
import org.agentplatform.api.quota.KeyQuotaFilter;
import org.agentplatform.api.quota.KeyQuotas;
import org.agentplatform.api.validation.StorableStrings;
import org.agentplatform.api.web.BodyLimitFilter;
import org.agentplatform.api.web.BodyLimits;
import org.agentplatform.api.web.BrowserOrigins;
import org.agentplatform.api.web.CorsSettings;
import org.agentplatform.api.web.HeaderText;
import org.agentplatform.api.web.KnownQueryParams;
import org.agentplatform.api.web.MatchedRoutes;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.api.web.PathFirstRouteMatching;
import org.agentplatform.api.web.ProtocolRefusals;
import org.agentplatform.api.web.PublicPaths;
import org.agentplatform.api.web.RequestIdFilter;
import org.agentplatform.api.web.RequestIds;
import org.agentplatform.api.web.StorableTextFilter;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.operation.OperationReads;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.boot.jackson.autoconfigure.JsonFactoryBuilderCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.webflux.autoconfigure.WebFluxRegistrations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.security.web.server.firewall.ServerWebExchangeFirewall;
import org.springframework.security.web.server.firewall.StrictServerWebExchangeFirewall;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.security.web.server.util.matcher.NegatedServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The HTTP edge: request ids, body limits, bearer authentication, per-key quotas, strict JSON and the
 * error envelope. The ports it needs (credential store, trusted issuers, identity directory) come
 * from infra.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@ComponentScan
public class ApiConfiguration implements WebFluxConfigurer {

    /** Reachable without a credential ({@link PublicPaths}); everything else needs a bearer token. */
    private static final ServerWebExchangeMatcher PUBLIC =
            ServerWebExchangeMatchers.pathMatchers(PublicPaths.PATTERNS.toArray(String[]::new));

    @Override
    public void configureHttpMessageCodecs(ServerCodecConfigurer codecs) {
        // BodyLimitFilter enforces the per-route limits; the codecs only need room for the largest
        codecs.defaultCodecs().maxInMemorySize((int) BodyLimits.LARGE);
    }

    /** A WebSocket session keeps its handshake's request id, so what it causes is audited under it. */
    @Override
    public WebSocketService getWebSocketService() {
        HandshakeWebSocketService service = new HandshakeWebSocketService();
        service.setSessionAttributePredicate(RequestIds::isAttribute);
        return service;
    }

    @Bean
    JsonMapperBuilderCustomizer strictRequestBodies() {
        return builder -> builder
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                // a number or a boolean is not text, and a fraction is not an integer: {"message": true}, {"title": 12345}
                // and {"deadline_ms": 5000.7} are refused with the field, never taken as "true", "12345" or 5000
                .withCoercionConfig(LogicalType.Textual, strings -> strings.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail).setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Integer, integers -> integers.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail).setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, booleans -> booleans.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail).setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .addModule(StorableStrings.module());
    }

    /**
     * Jackson's buffers kept per thread. Spring's encoder writes each response into a {@code ByteArrayBuilder} that takes
     * a buffer recycler from the factory's pool and never gives it back, so with Jackson's default pool (a shared deque)
     * every response started from a new recycler and new buffers: 7 % of the bytes the service allocated under load.
     * Per thread, a recycler is reused; the threads that write JSON are the event loops and the workers, a fixed few.
     */
    @Bean
    JsonFactoryBuilderCustomizer buffersPerThread() {
        return builder -> builder.recyclerPool(JsonRecyclerPools.threadLocalPool());
    }

    @Bean
    ErrorResponseWriter errorResponseWriter(JsonMapper jsonMapper) {
        return new ErrorResponseWriter(jsonMapper);
    }

    @Bean
    ApiErrorHandler apiErrorHandler(ErrorResponseWriter writer) {
        return new ApiErrorHandler(writer);
    }

    @Bean
    RequestIdFilter requestIdFilter() {
        return new RequestIdFilter();
    }

    @Bean
    BodyLimitFilter bodyLimitFilter() {
        return new BodyLimitFilter();
    }

    @Bean
    ProtocolRefusals protocolRefusals(ErrorResponseWriter writer) {
        return new ProtocolRefusals(writer);
    }

    @Bean
    StorableTextFilter storableTextFilter(MatchedRoutes matchedRoutes, ErrorResponseWriter writer) {
        return new StorableTextFilter(matchedRoutes, writer);
    }

    /** The controllers' routes, matched by path first ({@link PathFirstRouteMatching}). */
    @Bean
    WebFluxRegistrations pathFirstRouteMatching() {
        return new WebFluxRegistrations() {
            @Override
            public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
                return new PathFirstRouteMatching();
            }
        };
    }

    @Bean
    MatchedRoutes matchedRoutes(RequestMappingHandlerMapping requestMappingHandlerMapping) {
        return new MatchedRoutes(requestMappingHandlerMapping);
    }

    @Bean
    KnownQueryParams knownQueryParams(MatchedRoutes matchedRoutes, ErrorResponseWriter writer) {
        return new KnownQueryParams(matchedRoutes, writer);
    }

    @Bean
    KeyQuotaFilter keyQuotaFilter(KeyQuotas keyQuotas, MatchedRoutes matchedRoutes, ErrorResponseWriter writer) {
        return new KeyQuotaFilter(keyQuotas, matchedRoutes, writer);
    }

    @Bean
    Commands commands(CommandGateway commandGateway, Scheduler commandSenders) {
        return new Commands(commandGateway, commandSenders);
    }

    /**
     * The threads commands are sent on: each waits for its transaction's commit, so a few per core; requests beyond them
     * queue in order. They start with the service, from {@code commandThreads} (infra gives them their priority: below
     * the event loops', above the background's).
     */
    @Bean(destroyMethod = "dispose")
    Scheduler commandSenders(ThreadFactory commandThreads) {
        int threads = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                commandThreads);
        pool.prestartAllCoreThreads();
        return Schedulers.fromExecutorService(pool, "command-senders");
    }

    @Bean
    OperationQueue operationQueue(Commands commands, OperationReads operations, SecretSealer vault, Clock clock,
            OperationSettings settings) {
        return new OperationQueue(commands, operations, vault, clock, settings);
    }

    @Bean
    OperationStream operationStream(OperationReads operations, ChangeFeed feed, JsonMapper jsonMapper, OpenStreams openStreams) {
        return new OperationStream(operations, feed, jsonMapper, Duration.ofSeconds(15), openStreams);
    }

    @Bean
    OpenStreams openStreams() {
        return new OpenStreams();
    }

    @Bean
    CredentialCache credentialCache(IdentitySettings settings) {
        return new CredentialCache(settings.credentialCacheTtl(), 100_000);
    }

    @Bean
    CallerAuthenticationManager callerAuthenticationManager(CredentialStore credentials, CredentialCache cache,
            List<TrustedIssuer> issuers, Clock clock, IdentitySettings settings) {
        return new CallerAuthenticationManager(credentials, cache, issuers, clock, settings.jwtRateLimitPerMinute());
    }

    /**
     * Spring Security's firewall refuses encoded path tricks ({@code %2e%2e}, {@code %2f}, {@code ;}, {@code %25}) before any
     * route; its refusal carries the envelope too.
     */
    @Bean
    ServerExchangeRejectedHandler firewallRefusals(ErrorResponseWriter writer) {
        return (exchange, rejected) -> writer.write(exchange, ApiException.invalidParam("path",
                "The request path is not allowed: encoded separators, dot segments, ';' and '%25' are refused"));
    }

    /** The firewall's default rules, with header names and values checked without a regular expression ({@link HeaderText}). */
    @Bean
    ServerWebExchangeFirewall firewall() {
        StrictServerWebExchangeFirewall firewall = new StrictServerWebExchangeFirewall();
        firewall.setAllowedHeaderNames(HeaderText::allowedName);
        firewall.setAllowedHeaderValues(HeaderText::allowedValue);
        return firewall;
    }

    /**
     * No observations of Spring Security's filters, authentications and authorizations: switched off by
     * {@code management.observations.enable.spring.security}, they still wrapped every filter of every request in a
     * decorator that asked for them; without this bean the wrappers are not built.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    SecurityWebFilterChain apiSecurity(ServerHttpSecurity http, CallerAuthenticationManager callers,
            ErrorResponseWriter writer, CorsSettings cors) {
        AuthenticationWebFilter bearer = new AuthenticationWebFilter(callers);
        bearer.setServerAuthenticationConverter(new BearerTokenConverter());
        bearer.setRequiresAuthenticationMatcher(new NegatedServerWebExchangeMatcher(PUBLIC));
        bearer.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
        bearer.setAuthenticationFailureHandler((filterExchange, failure) ->
                writer.write(filterExchange.getExchange(), ApiErrorHandler.translate(failure)));
        if (!cors.allowedOrigins().isEmpty()) {
            // a preflight carries no credential: answered before authentication
            http.addFilterAt(new CorsWebFilter(BrowserOrigins.source(cors.allowedOrigins()), new BrowserOrigins.Processor()),
                    SecurityWebFiltersOrder.CORS);
        }
        return http
                .cors(ServerHttpSecurity.CorsSpec::disable)
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .requestCache(cache -> cache.requestCache(NoOpServerRequestCache.getInstance()))
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                .addFilterAt(bearer, SecurityWebFiltersOrder.AUTHENTICATION)
                .authorizeExchange(exchanges -> exchanges
                        .matchers(PUBLIC).permitAll()
                        .anyExchange().authenticated())
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint((exchange, missing) -> writer.write(exchange,
                                new ApiException(ErrorCode.UNAUTHORIZED, "The Authorization header is missing")))
                        .accessDeniedHandler((exchange, denied) -> writer.write(exchange,
                                new ApiException(ErrorCode.FORBIDDEN, "Not permitted"))))
                .build();
    }
}
