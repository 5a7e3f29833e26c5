package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.control.ControlBudget;
import org.agentplatform.api.web.ApiResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The caller's owner. {@code GET /api/v1/owners/me}: who the credential acts for, its request quota and its control budgets
 * left (the console shows them, and learns from a 401 here that it must sign in). {@code DELETE /api/v1/owners/me/content}:
 * the caller's owner erases its personal content (GDPR Art. 17) by destroying its data keys ({@link ContentErasure}). Its
 * messages, replies, streamed chunks and file names read {@code "[erased]"} from the answer on (on other nodes within 10 s),
 * its uploaded files are deleted (their downloads 404); ids, statuses and instants stay. The owner, its keys and its agents
 * stay usable: content sent afterwards is sealed with a new key. Audited as the caller's.
 */
@RestController
final class OwnerRoutes {

    private final ContentErasure erasure;
    private final ControlBudget budget;

    OwnerRoutes(ContentErasure erasure, ControlBudget budget) {
        this.erasure = erasure;
        this.budget = budget;
    }

    @GetMapping("/api/v1/owners/me")
    Mono<ApiResponse<OwnerView>> me(@AuthenticationPrincipal Caller caller) {
        String credential = switch (caller.kind()) {
            case API_KEY -> "api_key";
            case USER_JWT -> "user";
            case EXTERNAL_JWT -> "external";
        };
        return Mono.zip(budget.left(caller.ownerId(), ControlBudget.Bucket.INFO),
                        budget.left(caller.ownerId(), ControlBudget.Bucket.ACTIONS))
                .map(left -> ApiResponse.of(new OwnerView(caller.ownerId().toString(), credential, caller.rateLimitPerMinute(),
                        new ControlBudgets(BudgetView.of(left.getT1()), BudgetView.of(left.getT2())))));
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
            @JsonProperty("rate_limit_per_minute") int rateLimitPerMinute, @JsonProperty("control_budget") ControlBudgets controlBudget) {
    }

    /** The owner's control budgets left now (shared by all its credentials): screenshots and reads, and actions. */
    record ControlBudgets(BudgetView info, BudgetView actions) {
    }

    /** A budget: its size a minute, what is left, and in how many seconds it is full again. */
    record BudgetView(int limit, int remaining, @JsonProperty("reset_seconds") long resetSeconds) {

        static BudgetView of(ControlBudget.Decision left) {
            return new BudgetView(left.limit(), left.remaining(), left.resetSeconds());
        }
    }

    /** The erasure on the wire: {@code keys_destroyed} is 0 when nothing was sealed since the owner's last erasure. */
    record ErasedView(@JsonProperty("owner_id") String ownerId, @JsonProperty("erased_at") Instant erasedAt,
            @JsonProperty("keys_destroyed") int keysDestroyed, @JsonProperty("files_deleted") int filesDeleted) {
    }
}
