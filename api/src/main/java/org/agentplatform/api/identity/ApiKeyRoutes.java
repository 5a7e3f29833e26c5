package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.auth.CredentialCache;
import org.agentplatform.api.auth.StoredApiKey;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.kernel.identity.ApiKeyId;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * User API keys ({@code oag_}): create (the plaintext is answered once), list, revoke. There is no
 * rotation: issue a new key, switch callers, revoke the old one. {@code scopes} is accepted and ignored.
 */
@RestController
final class ApiKeyRoutes {

    static final int MAX_RATE_LIMIT_PER_MINUTE = 100_000;

    private final IdentityDirectory directory;
    private final CredentialCache credentials;
    private final Clock clock;
    private final int defaultRateLimitPerMinute;

    ApiKeyRoutes(IdentityDirectory directory, CredentialCache credentials, Clock clock, IdentitySettings settings) {
        this.directory = directory;
        this.credentials = credentials;
        this.clock = clock;
        this.defaultRateLimitPerMinute = settings.defaultKeyRateLimitPerMinute();
    }

    @PostMapping(path = "/api/v1/api-keys", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<CreatedKey>> create(@AuthenticationPrincipal Caller caller, @RequestBody CreateKeyRequest request) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        String name = Validate.text("name", request.name(), 1, 128);
        int rateLimit = request.rateLimitPerMinute() == null
                ? defaultRateLimitPerMinute
                : Validate.range("rate_limit_per_minute", request.rateLimitPerMinute(), 1, MAX_RATE_LIMIT_PER_MINUTE);
        Instant expiresAt = request.expiresAt() == null ? null : request.expiresAt().toInstant();
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            throw ApiException.invalidParam("expires_at", "'expires_at' must be in the future");
        }
        ApiKeySecret secret = ApiKeySecret.generate();
        NewApiKey key = new NewApiKey(ApiKeyId.random(), caller.ownerId(), name, secret.displayPrefix(), secret.sha256(),
                rateLimit, expiresAt, now);
        return directory.createApiKey(key)
                .map(stored -> ApiResponse.of(CreatedKey.of(stored, secret)));
    }

    /** The caller's keys that are not revoked, newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping("/api/v1/api-keys")
    Mono<ApiResponse<KeyList>> list(@AuthenticationPrincipal Caller caller,
            @ParameterObject PageParams paging) {
        QueryParams.PageRequest page = paging.request();
        return directory.listApiKeys(caller.ownerId(), page.before(), page.limit())
                .map(found -> ApiResponse.of(new KeyList(found.items().stream().map(KeyView::of).toList(), found.nextCursor())));
    }

    @DeleteMapping("/api/v1/api-keys/{keyId}")
    Mono<ApiResponse<KeyView>> revoke(@AuthenticationPrincipal Caller caller, @PathVariable String keyId) {
        ApiKeyId id = PathIds.parse("keyId", keyId, ApiKeyId::new);
        return directory.revokeApiKey(caller.ownerId(), id, clock.instant().truncatedTo(ChronoUnit.MILLIS))
                .doOnNext(revoked -> credentials.forget(remembered -> remembered instanceof StoredApiKey key && key.id().equals(id)))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No API key " + keyId)))
                .map(KeyView::of)
                .map(ApiResponse::of);
    }

    record CreateKeyRequest(
            String name,
            @JsonProperty("rate_limit_per_minute") Integer rateLimitPerMinute,
            @JsonProperty("expires_at") OffsetDateTime expiresAt,
            Object scopes) {
    }

    record CreatedKey(
            String id,
            String name,
            String key,
            @JsonProperty("key_prefix") String keyPrefix,
            @JsonProperty("rate_limit_per_minute") int rateLimitPerMinute,
            @JsonProperty("expires_at") @Nullable Instant expiresAt,
            @JsonProperty("created_at") Instant createdAt) {

        static CreatedKey of(ApiKeyRecord stored, ApiKeySecret secret) {
            return new CreatedKey(stored.id().toString(), stored.name(), secret.plaintext(), stored.keyPrefix(),
                    stored.rateLimitPerMinute(), stored.expiresAt(), stored.createdAt());
        }

        @Override
        public String toString() {
            return "CreatedKey[id=" + id + ", keyPrefix=" + keyPrefix + "]";
        }
    }

    record KeyView(
            String id,
            String name,
            @JsonProperty("key_prefix") String keyPrefix,
            @JsonProperty("rate_limit_per_minute") int rateLimitPerMinute,
            @JsonProperty("expires_at") @Nullable Instant expiresAt,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("revoked_at") @Nullable Instant revokedAt) {

        static KeyView of(ApiKeyRecord key) {
            return new KeyView(key.id().toString(), key.name(), key.keyPrefix(), key.rateLimitPerMinute(),
                    key.expiresAt(), key.createdAt(), key.revokedAt());
        }
    }

    /** A page of API keys; {@code next_cursor} is null on the last page. */
    record KeyList(@JsonProperty("api_keys") List<KeyView> apiKeys, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }
}
