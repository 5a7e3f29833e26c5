package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.web.ApiResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code DELETE /api/v1/owners/me/content}: the caller's owner erases its personal content (GDPR Art. 17) by destroying its
 * data keys ({@link ContentErasure}). Its messages, replies, streamed chunks and file names read {@code "[erased]"} from the
 * answer on (on other nodes within 10 s), its uploaded files are deleted (their downloads 404); ids, statuses and instants
 * stay. The owner, its keys and its agents stay usable: content sent afterwards is sealed with a new key. Audited as the
 * caller's.
 */
@RestController
final class OwnerContentRoutes {

    private final ContentErasure erasure;

    OwnerContentRoutes(ContentErasure erasure) {
        this.erasure = erasure;
    }

    @DeleteMapping("/api/v1/owners/me/content")
    Mono<ApiResponse<ErasedView>> erase(@AuthenticationPrincipal Caller caller, ServerWebExchange exchange) {
        return erasure.erase(caller.ownerId(), Commands.audit(caller, exchange))
                .map(erased -> ApiResponse.of(new ErasedView(erased.ownerId().toString(), erased.erasedAt(), erased.keysDestroyed(),
                        erased.filesDeleted())));
    }

    /** The erasure on the wire: {@code keys_destroyed} is 0 when nothing was sealed since the owner's last erasure. */
    record ErasedView(@JsonProperty("owner_id") String ownerId, @JsonProperty("erased_at") Instant erasedAt,
            @JsonProperty("keys_destroyed") int keysDestroyed, @JsonProperty("files_deleted") int filesDeleted) {
    }
}
