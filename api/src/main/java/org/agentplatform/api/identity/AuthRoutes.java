package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.api.auth.AuthenticationFailure;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.openapi.OpenApiConfiguration;
import org.agentplatform.api.quota.KeyQuotas;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.password.PasswordEncoder;
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
    private final Mono<String> decoyHash;
    /** (email, address) pairs that logged in successfully: the usual addresses the per-email limit spares. */
    private final Set<String> usualAddresses = ConcurrentHashMap.newKeySet();

    AuthRoutes(IdentityDirectory directory, PasswordEncoder passwords, AccessTokenIssuer issuer, KeyQuotas quotas) {
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
        String email = Validate.text("email", request.email(), 3, 320);
        String password = Validate.text("password", request.password(), 1, 1024);
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
                .map(candidate -> issuer.issue(candidate.user()))
                .map(token -> ApiResponse.of(new LoginResponse(token.value(), "Bearer",
                        Duration.between(token.issuedAt(), token.expiresAt()).toSeconds(), token.expiresAt()))));
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
