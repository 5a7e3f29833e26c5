package org.agentplatform.api.identity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.auth.ApiKeySecret;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.query.agent.AgentReads;
import org.agentplatform.query.agent.AgentRecord;
import org.jspecify.annotations.Nullable;
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
 * Agent API keys ({@code bak_} + 64 hex), managed by the agent's owner: create (the plaintext is answered once; only its
 * SHA-256 is kept), list, revoke; at most three active per agent (a fourth is 409 {@code conflict}). They are for the
 * agent-to-agent host, which this service does not host: this API refuses them like any unknown token.
 */
@RestController
final class AgentKeyRoutes {

    static final String PREFIX = "bak_";

    private final IdentityDirectory directory;
    private final AgentReads agents;
    private final Clock clock;

    AgentKeyRoutes(IdentityDirectory directory, AgentReads agents, Clock clock) {
        this.directory = directory;
        this.agents = agents;
        this.clock = clock;
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/keys", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<CreatedAgentKey>> create(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody CreateAgentKeyRequest request) {
        String name = Validate.text("name", request.name(), 1, 128);
        return owned(caller, agentId).flatMap(agent -> {
            String plaintext = ApiKeySecret.randomToken(PREFIX);
            AgentKeyRecord key = new AgentKeyRecord(UUID.randomUUID(), caller.ownerId(), agent.id(), name,
                    plaintext.substring(0, ApiKeySecret.DISPLAY_PREFIX_LENGTH), clock.instant().truncatedTo(ChronoUnit.MILLIS), null);
            return directory.createAgentKey(key, ApiKeySecret.sha256(plaintext))
                    .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.CONFLICT, "Agent " + agentId + " already has "
                            + AgentKeyRecord.MAX_ACTIVE + " active keys; revoke one first")))
                    .map(stored -> ApiResponse.of(CreatedAgentKey.of(stored, plaintext)));
        });
    }

    @GetMapping("/api/v1/agents/{agentId}/keys")
    Mono<ApiResponse<List<AgentKeyView>>> list(@AuthenticationPrincipal Caller caller, @PathVariable String agentId) {
        return owned(caller, agentId)
                .flatMap(agent -> directory.listAgentKeys(agent.id()).map(AgentKeyView::of).collectList())
                .map(ApiResponse::of);
    }

    @DeleteMapping("/api/v1/agents/{agentId}/keys/{keyId}")
    Mono<ApiResponse<AgentKeyView>> revoke(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String keyId) {
        UUID id = PathIds.parse("keyId", keyId, Function.identity());
        return owned(caller, agentId)
                .flatMap(agent -> directory.revokeAgentKey(agent.id(), id, clock.instant().truncatedTo(ChronoUnit.MILLIS)))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No active key " + keyId + " of agent " + agentId)))
                .map(AgentKeyView::of)
                .map(ApiResponse::of);
    }

    /** The caller's own agent: unknown is 404 {@code agent_not_found}; another owner's, public or not, 403 {@code forbidden}. */
    private Mono<AgentRecord> owned(Caller caller, String agentId) {
        return AgentAccess.readable(agents, AgentAccess.parse(agentId), caller.ownerId())
                .flatMap(agent -> agent.isOwnedBy(caller.ownerId()) ? Mono.just(agent)
                        : Mono.error(new ApiException(ErrorCode.FORBIDDEN, "Only the owner of agent " + agentId + " manages its keys")));
    }

    record CreateAgentKeyRequest(String name) {
    }

    record CreatedAgentKey(
            String id,
            @JsonProperty("agent_id") String agentId,
            String name,
            String key,
            @JsonProperty("key_prefix") String keyPrefix,
            @JsonProperty("created_at") Instant createdAt) {

        static CreatedAgentKey of(AgentKeyRecord stored, String plaintext) {
            return new CreatedAgentKey(stored.id().toString(), stored.agentId().toString(), stored.name(), plaintext, stored.keyPrefix(),
                    stored.createdAt());
        }

        @Override
        public String toString() {
            return "CreatedAgentKey[id=" + id + ", keyPrefix=" + keyPrefix + "]";
        }
    }

    record AgentKeyView(
            String id,
            @JsonProperty("agent_id") String agentId,
            String name,
            @JsonProperty("key_prefix") String keyPrefix,
            @JsonProperty("created_at") Instant createdAt,
            @JsonProperty("revoked_at") @Nullable Instant revokedAt) {

        static AgentKeyView of(AgentKeyRecord key) {
            return new AgentKeyView(key.id().toString(), key.agentId().toString(), key.name(), key.keyPrefix(), key.createdAt(),
                    key.revokedAt());
        }
    }
}
