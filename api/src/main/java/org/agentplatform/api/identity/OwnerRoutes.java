package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.web.ApiResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The caller's owner. {@code GET /api/v1/owners/me}: who the credential acts for (the console shows it, and learns from a
 * 401 here that it must sign in). {@code DELETE /api/v1/owners/me/content}: the caller's owner erases its personal content (GDPR Art. 17) by destroying its
 * data keys ({@link ContentErasure}). Its messages, replies, streamed chunks and file names read {@code "[erased]"} from the
 * answer on (on other nodes within 10 s), its uploaded files are deleted (their downloads 404); ids, statuses and instants
 * stay. The owner, its keys and its agents stay usable: content sent afterwards is sealed with a new key. Audited as the
 * caller's.
 */
@RestController
final class OwnerRoutes {

    private final ContentErasure erasure;

    OwnerRoutes(ContentErasure erasure) {
        this.erasure = erasure;
    }

    @GetMapping("/api/v1/owners/me")
    Mono<ApiResponse<OwnerView>> me(@AuthenticationPrincipal Caller caller) {
        String credential = switch (caller.kind()) {
            case API_KEY -> "api_key";
            case USER_JWT -> "user";
            case EXTERNAL_JWT -> "external";
        };
        return Mono.just(ApiResponse.of(new OwnerView(caller.ownerId().toString(), credential, caller.rateLimitPerMinute())));
    }

    @DeleteMapping("/api/v1/owners/me/content")
    Mono<ApiResponse<ErasedView>> erase(@AuthenticationPrincipal Caller caller, ServerWebExchange exchange) {
        return erasure.erase(caller.ownerId(), Commands.audit(caller, exchange))
                .map(erased -> ApiResponse.of(new ErasedView(erased.ownerId().toString(), erased.erasedAt(), erased.keysDestroyed(),
                        erased.filesDeleted())));
    }

    /**
     * The caller: its owner, how it authenticated ({@code api_key}, {@code user}: a built-in login, {@code external}: another
     * issuer's token) and its requests a minute.
     */
    record OwnerView(@JsonProperty("owner_id") String ownerId, String credential,
            @JsonProperty("rate_limit_per_minute") int rateLimitPerMinute) {
    }

    /** The erasure on the wire: {@code keys_destroyed} is 0 when nothing was sealed since the owner's last erasure. */
    record ErasedView(@JsonProperty("owner_id") String ownerId, @JsonProperty("erased_at") Instant erasedAt,
            @JsonProperty("keys_destroyed") int keysDestroyed, @JsonProperty("files_deleted") int filesDeleted) {
    }
}
