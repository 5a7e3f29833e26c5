package org.agentplatform.api.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.kernel.agent.AgentCommand.ChangeAgentSettings;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.query.agent.AgentReads;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Platform agents: the caller's and every public one ({@code GET /agents}), one agent, and the owner's
 * PATCH of {@code visibility} and {@code mcp_enabled} (any other field is 400 {@code invalid_body}).
 */
@RestController
final class AgentRoutes {

    private static final Duration READ_MODEL_WAIT = Duration.ofSeconds(5);

    private final Commands commands;
    private final AgentReads agents;

    AgentRoutes(Commands commands, AgentReads agents) {
        this.commands = commands;
        this.agents = agents;
    }

    /** The caller's agents and every public one, newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping("/api/v1/agents")
    Mono<ApiResponse<AgentList>> list(@AuthenticationPrincipal Caller caller,
            @ParameterObject PageParams paging) {
        QueryParams.PageRequest page = paging.request();
        return agents.visibleTo(caller.ownerId(), page.before(), page.limit())
                .map(found -> ApiResponse.of(new AgentList(found.items().stream().map(agent -> AgentView.of(agent, caller.ownerId())).toList(),
                        found.nextCursor())));
    }

    @GetMapping("/api/v1/agents/{agentId}")
    Mono<ApiResponse<AgentView>> get(@AuthenticationPrincipal Caller caller, @PathVariable String agentId) {
        return AgentAccess.readable(agents, AgentAccess.parse(agentId), caller.ownerId())
                .map(agent -> ApiResponse.of(AgentView.of(agent, caller.ownerId())));
    }

    @PatchMapping(path = "/api/v1/agents/{agentId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ApiResponse<AgentView>> patch(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody PatchRequest request, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        Visibility visibility = request.visibility() == null ? null : Visibility.fromWireName(request.visibility())
                .orElseThrow(() -> ApiException.invalidParam("visibility", "'visibility' must be private or public"));
        return commands.<Long>send(new ChangeAgentSettings(agent, caller.ownerId(), visibility, request.mcpEnabled()), caller, exchange,
                        ErrorCode.AGENT_NOT_FOUND)
                .flatMap(version -> agents.awaitVersion(agent, version, READ_MODEL_WAIT))
                .switchIfEmpty(Mono.error(() -> ApiException.notVisibleYet("The change", Map.of())))
                .map(updated -> ApiResponse.of(AgentView.of(updated, caller.ownerId())));
    }

    record PatchRequest(String visibility, @JsonProperty("mcp_enabled") Boolean mcpEnabled) {
    }

    /** A page of agents; {@code next_cursor} is null on the last page. */
    record AgentList(List<AgentView> agents, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }
}
