package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import org.agentplatform.api.auth.AuthenticationFailure;
import org.agentplatform.api.error.ApiException;
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
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The built-in user gateway: email + password login that returns an RS256 access token, and the
 * issuer's public keys. Password checks run off the event loop; an unknown email costs as much as
 * a wrong password, so timing does not tell which emails exist; attempts per email are rate limited
 * so passwords cannot be guessed at speed.
 */
@RestController
final class AuthRoutes {

    private static final String DECOY_PASSWORD = "decoy-password-for-unknown-emails";
    private static final String LOGIN = "POST /api/v1/auth/login";
    static final int ATTEMPTS_PER_EMAIL_PER_MINUTE = 10;

    private final IdentityDirectory directory;
    private final PasswordEncoder passwords;
    private final AccessTokenIssuer issuer;
    private final KeyQuotas quotas;
    private final Mono<String> decoyHash;

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
    Mono<ApiResponse<LoginResponse>> login(@RequestBody LoginRequest request) {
        String email = Validate.text("email", request.email(), 3, 320);
        String password = Validate.text("password", request.password(), 1, 1024);
        KeyQuotas.Decision attempt = quotas.acquire("login:" + email.toLowerCase(Locale.ROOT), LOGIN, ATTEMPTS_PER_EMAIL_PER_MINUTE);
        if (!attempt.permitted()) {
            throw ApiException.rateLimited(attempt.retryAfterSeconds());
        }
        return directory.findUserByEmail(email)
                .onErrorMap(failure -> new AuthenticationFailure(ErrorCode.AUTH_UNAVAILABLE,
                        "The identity store is unreachable", failure))
                .map(user -> new Candidate(user, user.passwordHash()))
                .switchIfEmpty(decoyHash.map(hash -> new Candidate(null, hash)))
                .publishOn(Schedulers.boundedElastic())
                .filter(candidate -> passwords.matches(password, candidate.passwordHash()) && candidate.user() != null)
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.LOGIN_REJECTED, "The email or password is wrong")))
                .map(candidate -> issuer.issue(candidate.user()))
                .map(token -> ApiResponse.of(new LoginResponse(token.value(), "Bearer",
                        Duration.between(token.issuedAt(), token.expiresAt()).toSeconds(), token.expiresAt())));
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
