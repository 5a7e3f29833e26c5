package org.agentplatform.api.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.task.TaskRequests.InvokeRequest;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Synchronous invoke: a task (origin {@code invoke}) the call waits for, up to {@code timeout_ms} (clamped
 * to [100, 115000]). It answers once the task completes or waits for the caller (input or authorization);
 * a task that ended badly answers the contract's invoke failure mapping; past the timeout, 504
 * {@code service_timeout} while the task goes on ({@code error.metadata.task_id}).
 */
@RestController
final class InvokeRoutes {

    private final TaskStarter starter;
    private final TaskReads tasks;
    private final PersonalContent content;
    private final Clock clock;

    InvokeRoutes(TaskStarter starter, TaskReads tasks, PersonalContent content, Clock clock) {
        this.content = content;
        this.starter = starter;
        this.tasks = tasks;
        this.clock = clock;
    }

    @PostMapping(path = "/api/v1/agents/{agentId}/invoke", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ApiResponse<TaskView>> invoke(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @RequestBody InvokeRequest request, ServerWebExchange exchange) {
        Instant giveUp = clock.instant().plus(request.timeout());
        AgentId agent = AgentAccess.parse(agentId);
        return starter.start(caller, exchange, agent, request.validated(), TaskOrigin.INVOKE)
                // invoke answers an offline agent as the contract maps it: 503 agent_service_unavailable, saying why
                .onErrorMap(ApiException.class, refused -> refused.code() == ErrorCode.AGENT_OFFLINE
                        ? new ApiException(ErrorCode.AGENT_SERVICE_UNAVAILABLE, "The agent is offline: " + refused.getMessage())
                        : refused)
                .flatMap(created -> tasks.awaitState(created.taskId(), task -> task.status().isSettled(), left(giveUp))
                        .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.SERVICE_TIMEOUT, "The agent did not answer within "
                                + request.timeout().toMillis() + " ms; the task goes on: follow it with the tasks API, do not invoke again",
                                "", timedOut(created, request.timeout()), null)))
                        .map(task -> answer(task, created, content.opener(caller.ownerId()))))
                .map(ApiResponse::of);
    }

    private static TaskView answer(TaskRecord task, TaskStarter.Created created, UnaryOperator<String> open) {
        TaskError.of(task).filter(error -> !error.isAgentReported()).ifPresent(error -> {
            throw new ApiException(error.errorCode(), error.message(), "", metadata(created), null);
        });
        return TaskView.of(task, open);
    }

    private Duration left(Instant giveUp) {
        Duration left = Duration.between(clock.instant(), giveUp);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Also the wait as clamped, so a caller sees what its {@code timeout_ms} became. */
    private static Map<String, String> timedOut(TaskStarter.Created created, Duration waited) {
        return Map.of("task_id", created.taskId().toString(), "context_id", created.contextId(), "timeout_ms",
                Long.toString(waited.toMillis()));
    }

    private static Map<String, String> metadata(TaskStarter.Created created) {
        return Map.of("task_id", created.taskId().toString(), "context_id", created.contextId());
    }
}
