package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.api.auth.AuthenticationFailure;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.auth.CallerAuthenticationManager;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.openapi.OpenApiConfiguration;
import org.agentplatform.api.quota.KeyQuotas;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The built-in user gateway: email + password login that returns an RS256 access token, and the
 * issuer's public keys. Password checks run off the event loop; an unknown email costs as much as
 * a wrong password, so timing does not tell which emails exist. Attempts are limited so passwords
 * cannot be guessed at speed, without letting anyone lock a user out: per email and client address
 * (10 a minute), per client address (300 a minute), and per email (30 a minute) except from the
 * addresses that email has logged in from before, so its owner still gets in while it is attacked.
 */
@RestController
final class AuthRoutes {

    private static final String DECOY_PASSWORD = "decoy-password-for-unknown-emails";
    private static final String LOGIN = "POST /api/v1/auth/login";
    static final int ATTEMPTS_PER_EMAIL_AND_ADDRESS_PER_MINUTE = 10;
    static final int ATTEMPTS_PER_ADDRESS_PER_MINUTE = 300;
    static final int ATTEMPTS_PER_EMAIL_PER_MINUTE = 30;
    private static final int KNOWN_ADDRESSES = 100_000;

    private final IdentityDirectory directory;
    private final PasswordEncoder passwords;
    private final AccessTokenIssuer issuer;
    private final KeyQuotas quotas;
    private final CallerAuthenticationManager callers;
    private final Mono<String> decoyHash;
    /** (email, address) pairs that logged in successfully: the usual addresses the per-email limit spares. */
    private final Set<String> usualAddresses = ConcurrentHashMap.newKeySet();

    AuthRoutes(IdentityDirectory directory, PasswordEncoder passwords, AccessTokenIssuer issuer, KeyQuotas quotas,
            CallerAuthenticationManager callers) {
        this.callers = callers;
        this.directory = directory;
        this.passwords = passwords;
        this.issuer = issuer;
        this.quotas = quotas;
        this.decoyHash = Mono.fromCallable(() -> passwords.encode(DECOY_PASSWORD))
                .subscribeOn(Schedulers.boundedElastic())
                .cache();
    }

    @PostMapping(path = "/api/v1/auth/login", consumes = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "422",
            description = "The error envelope, `login_rejected`: the email or password is wrong",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.ERROR_RESPONSE)))
    Mono<ApiResponse<LoginResponse>> login(@RequestBody LoginRequest request, ServerWebExchange exchange) {
        return passwordLogin(request.email(), request.password(), exchange)
                .map(login -> ApiResponse.of(new LoginResponse(login.token().value(), "Bearer",
                        Duration.between(login.token().issuedAt(), login.token().expiresAt()).toSeconds(), login.token().expiresAt())));
    }

    /**
     * The console's sign-in: an {@code oag_} key, or an email and password (limited as the login is), exchanged for a
     * short-lived session token set as an HttpOnly, SameSite=Strict cookie on {@code /api/} (Secure over HTTPS), which
     * authenticates the console's same-origin requests. The key itself is never stored in the cookie.
     */
    @PostMapping(path = "/api/v1/auth/session", consumes = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200", description = "Signed in: the session cookie is set",
            useReturnTypeSchema = true)
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "422",
            description = "The error envelope, `login_rejected`: the key, email or password is wrong",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.ERROR_RESPONSE)))
    Mono<ApiResponse<SessionView>> signIn(@RequestBody SessionRequest request, ServerWebExchange exchange) {
        boolean byKey = request.apiKey() != null;
        if (byKey == (request.email() != null || request.password() != null)) {
            throw new ApiException(ErrorCode.INVALID_BODY, "Send either api_key, or email and password", "api_key", Map.of(), null);
        }
        Mono<SessionView> session = byKey ? keySession(Validate.text("api_key", request.apiKey(), 1, 256), exchange)
                : passwordLogin(request.email(), request.password(), exchange)
                        .map(login -> new SessionView(login.user().ownerId().toString(), "user", login.token()));
        return session.doOnNext(signedIn -> exchange.getResponse().addCookie(SessionCookie.of(exchange, signedIn.token)))
                .map(ApiResponse::of);
    }

    /** Signs the console out: the session cookie is cleared (the token in it ends by itself within its lifetime). */
    @DeleteMapping("/api/v1/auth/session")
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "204", description = "Signed out: the session cookie is cleared")
    Mono<ResponseEntity<Void>> signOut(ServerWebExchange exchange) {
        exchange.getResponse().addCookie(SessionCookie.cleared(exchange));
        return Mono.just(ResponseEntity.noContent().build());
    }

    private Mono<SessionView> keySession(String key, ServerWebExchange exchange) {
        if (!key.startsWith(ApiKeySecret.PREFIX)) {
            // a token (a login's, or a session's) is not a key: its session would name no key
            return Mono.error(new ApiException(ErrorCode.LOGIN_REJECTED, "The api_key must be an oag_ key"));
        }
        return throttle("login-from:" + clientAddress(exchange), ATTEMPTS_PER_ADDRESS_PER_MINUTE)
                .then(callers.authenticate(new BearerTokenAuthenticationToken(key)))
                .onErrorMap(AuthenticationFailure.class, refused -> refused.code() == ErrorCode.AUTH_UNAVAILABLE
                        ? refused
                        : new ApiException(ErrorCode.LOGIN_REJECTED, "The API key is wrong, revoked or expired"))
                .map(authenticated -> (Caller) authenticated.getPrincipal())
                .map(caller -> new SessionView(caller.ownerId().toString(), "api_key", issuer.issueForKey(caller.ownerId(),
                        new ApiKeyId(UUID.fromString(caller.credentialId().substring("key:".length()))), ApiKeySecret.sha256(key))));
    }

    /** The user an email and password name, with a fresh token; limited per email and address, address, and email. */
    private Mono<Login> passwordLogin(String rawEmail, String rawPassword, ServerWebExchange exchange) {
        String email = Validate.text("email", rawEmail, 3, 320);
        String password = Validate.text("password", rawPassword, 1, 1024);
        String address = clientAddress(exchange);
        String pair = email.toLowerCase(Locale.ROOT) + " " + address;
        Mono<Void> throttles = throttle("login:" + pair, ATTEMPTS_PER_EMAIL_AND_ADDRESS_PER_MINUTE)
                .then(throttle("login-from:" + address, ATTEMPTS_PER_ADDRESS_PER_MINUTE))
                .then(usualAddresses.contains(pair)
                        ? Mono.empty()
                        : throttle("login-of:" + email.toLowerCase(Locale.ROOT), ATTEMPTS_PER_EMAIL_PER_MINUTE));
        return throttles.then(directory.findUserByEmail(email)
                .onErrorMap(failure -> new AuthenticationFailure(ErrorCode.AUTH_UNAVAILABLE,
                        "The identity store is unreachable", failure))
                .map(user -> new Candidate(user, user.passwordHash()))
                .switchIfEmpty(decoyHash.map(hash -> new Candidate(null, hash)))
                .publishOn(Schedulers.boundedElastic())
                .filter(candidate -> passwords.matches(password, candidate.passwordHash()) && candidate.user() != null)
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.LOGIN_REJECTED, "The email or password is wrong")))
                .doOnNext(candidate -> remember(pair))
                .map(candidate -> new Login(candidate.user(), issuer.issue(candidate.user()))));
    }

    private Mono<Void> throttle(String key, int perMinute) {
        return quotas.acquire(key, LOGIN, perMinute)
                .flatMap(attempt -> attempt.permitted() ? Mono.<Void>empty() : Mono.error(ApiException.rateLimited(attempt.retryAfterSeconds())));
    }

    private void remember(String pair) {
        if (usualAddresses.size() >= KNOWN_ADDRESSES) {
            usualAddresses.clear();
        }
        usualAddresses.add(pair);
    }

    /** The connecting address (behind a proxy, configure {@code server.forward-headers-strategy} so it is the client's). */
    private static String clientAddress(ServerWebExchange exchange) {
        InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
        return remote == null || remote.getAddress() == null ? "unknown" : remote.getAddress().getHostAddress();
    }

    @GetMapping(path = "/.well-known/jwks.json", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> jwks() {
        return issuer.publicJwks();
    }

    private record Candidate(UserAccount user, String passwordHash) {
    }

    private record Login(UserAccount user, AccessTokenIssuer.IssuedToken token) {
    }

    /** The console's sign-in: {@code api_key}, or {@code email} and {@code password}. */
    record SessionRequest(@JsonProperty("api_key") String apiKey, String email, String password) {

        @Override
        public String toString() {
            return "SessionRequest[email=" + email + "]";
        }
    }

    /** A console session: its owner, how it signed in ({@code api_key} or {@code user}) and when it ends. */
    record SessionView(@JsonProperty("owner_id") String ownerId, String credential, @JsonIgnore AccessTokenIssuer.IssuedToken token) {

        @JsonProperty("expires_at")
        Instant expiresAt() {
            return token.expiresAt();
        }
    }

    record LoginRequest(String email, String password) {

        @Override
        public String toString() {
            return "LoginRequest[email=" + email + "]";
        }
    }

    record LoginResponse(
            @JsonProperty("access_token") String accessToken,
            @JsonProperty("token_type") String tokenType,
            @JsonProperty("expires_in") long expiresIn,
            @JsonProperty("expires_at") Instant expiresAt) {
    }
}
