package org.agentplatform.api.webhook;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.api.agent.AgentAccess;
import org.agentplatform.api.agent.TaskAccess;
import org.agentplatform.api.audit.AsOf;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.webhook.DeliveryCommand.RedeliverDelivery;
import org.agentplatform.kernel.webhook.DeliveryId;
import org.agentplatform.kernel.webhook.WebhookCommand.RemoveWebhook;
import org.agentplatform.kernel.webhook.WebhookId;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.agentplatform.query.webhook.WebhookReads;
import org.agentplatform.query.webhook.WebhookRecord;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Webhooks of a task: register (again: a fresh secret or token rotates it, an empty or absent one leaves it),
 * list, delete, the delivery audit, and redeliver. Secrets and tokens are sealed in the vault before
 * anything else sees them and are never returned.
 */
@RestController
final class WebhookRoutes {

    private static final String BASE = "/api/v1/agents/{agentId}/tasks/{taskId}/webhooks";
    private static final Duration READ_YOUR_WRITE = Duration.ofSeconds(5);
    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;

    private final Commands commands;
    private final TaskReads tasks;
    private final WebhookReads webhooks;
    private final WebhookRegistrar registrar;

    private final PointInTime pointInTime;

    WebhookRoutes(Commands commands, TaskReads tasks, WebhookReads webhooks, WebhookRegistrar registrar, PointInTime pointInTime) {
        this.pointInTime = pointInTime;
        this.commands = commands;
        this.tasks = tasks;
        this.webhooks = webhooks;
        this.registrar = registrar;
    }

    @PostMapping(path = BASE, consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<WebhookView.Webhook>> register(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @RequestBody Registration request, ServerWebExchange exchange) {
        WebhookRegistrar.Checked webhook = WebhookRegistrar.check("", request.url(), request.secret(), request.token());
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> registrar.register(caller, exchange, task.id(), webhook))
                .flatMap(registered -> webhooks.awaitVersion(registered.webhookId(), registered.version(), READ_YOUR_WRITE))
                .switchIfEmpty(Mono.error(this::notVisibleYet))
                .map(found -> ApiResponse.of(WebhookView.Webhook.of(found)));
    }

    /** The task's webhooks, newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping(BASE)
    Mono<ApiResponse<WebhookList>> list(@AuthenticationPrincipal Caller caller, @PathVariable String agentId, @PathVariable String taskId,
            @ParameterObject PageParams paging) {
        QueryParams.PageRequest page = paging.request();
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> webhooks.webhooksOf(task.id(), page.before(), page.limit()))
                .map(found -> ApiResponse.of(new WebhookList(found.items().stream().map(WebhookView.Webhook::of).toList(), found.nextCursor())));
    }

    /** Immediate: attempts already under way finish, no new ones start. */
    @DeleteMapping(BASE + "/{webhookId}")
    Mono<ApiResponse<Map<String, Object>>> delete(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @PathVariable String webhookId, ServerWebExchange exchange) {
        WebhookId webhook = PathIds.parse("webhookId", webhookId, WebhookId::new);
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> webhookOf(task, webhook))
                .flatMap(found -> commands.<Long>send(new RemoveWebhook(webhook, caller.ownerId()), caller, exchange, ErrorCode.NOT_FOUND)
                        .flatMap(version -> webhooks.awaitVersion(webhook, version, READ_YOUR_WRITE)))
                .map(removed -> ApiResponse.of(Map.<String, Object>of("webhook_id", webhookId, "deleted", true)));
    }

    /** Newest first; {@code limit} clamped to [1, 200], default 50. A deleted webhook's audit stays readable. */
    @GetMapping(BASE + "/{webhookId}/deliveries")
    Mono<ApiResponse<Map<String, List<WebhookView.Delivery>>>> deliveries(@AuthenticationPrincipal Caller caller,
            @PathVariable String agentId, @PathVariable String taskId, @PathVariable String webhookId,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit) {
        WebhookId webhook = PathIds.parse("webhookId", webhookId, WebhookId::new);
        int clamped = QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> webhooks.find(webhook).filter(found -> found.taskId().equals(task.id())))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No webhook " + webhookId + " on task " + taskId)))
                .flatMap(found -> webhooks.deliveries(webhook, clamped).map(WebhookView.Delivery::of).collectList())
                .map(rows -> ApiResponse.of(Map.of("deliveries", rows)));
    }

    /** One delivery row of the webhook; {@code as_of} answers it as it stood then. */
    @GetMapping(BASE + "/{webhookId}/deliveries/{deliveryId}")
    Mono<ApiResponse<WebhookView.Delivery>> delivery(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @PathVariable String webhookId, @PathVariable String deliveryId,
            @RequestParam(name = AsOf.PARAM, required = false) String asOf) {
        WebhookId webhook = PathIds.parse("webhookId", webhookId, WebhookId::new);
        DeliveryId delivery = PathIds.parse("deliveryId", deliveryId, DeliveryId::new);
        Instant at = AsOf.parse(asOf);
        return TaskAccess.owned(tasks, AgentAccess.parse(agentId), taskId, caller.ownerId())
                .flatMap(task -> webhooks.delivery(delivery).filter(found -> found.webhookId().equals(webhook) && found.taskId().equals(task.id())))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No delivery " + deliveryId + " of webhook " + webhookId)))
                .flatMap(found -> at == null ? Mono.just(found) : AsOf.read(() -> pointInTime.delivery(delivery, at), "Delivery " + deliveryId, at))
                .map(row -> ApiResponse.of(WebhookView.Delivery.of(row)));
    }

    /**
     * A new pending row that re-sends the source's exact payload and signature header: 403 {@code forbidden} when
     * the caller does not own the task, 404 {@code not_found} when the delivery is not of that webhook, 409
     * {@code conflict} when the source is pending or succeeded.
     */
    @PostMapping(BASE + "/{webhookId}/deliveries/{deliveryId}/redeliver")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ApiResponse<WebhookView.Delivery>> redeliver(@AuthenticationPrincipal Caller caller, @PathVariable String agentId,
            @PathVariable String taskId, @PathVariable String webhookId, @PathVariable String deliveryId, ServerWebExchange exchange) {
        AgentId agent = AgentAccess.parse(agentId);
        WebhookId webhook = PathIds.parse("webhookId", webhookId, WebhookId::new);
        DeliveryId source = PathIds.parse("deliveryId", deliveryId, DeliveryId::new);
        DeliveryId clone = DeliveryId.random();
        return taskOfAnyOwner(agent, taskId)
                .flatMap(task -> task.ownerId().equals(caller.ownerId())
                        ? Mono.just(task)
                        : Mono.error(new ApiException(ErrorCode.FORBIDDEN, "Only the task's owner may redeliver its callbacks")))
                .flatMap(task -> webhooks.delivery(source)
                        .filter(found -> found.webhookId().equals(webhook) && found.taskId().equals(task.id())))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No delivery " + deliveryId + " of webhook " + webhookId)))
                .flatMap(found -> commands.<DeliveryId>send(new RedeliverDelivery(source, clone), caller, exchange, ErrorCode.NOT_FOUND))
                .flatMap(created -> webhooks.awaitDelivery(created, READ_YOUR_WRITE))
                .switchIfEmpty(Mono.error(this::notVisibleYet))
                .map(row -> ApiResponse.of(WebhookView.Delivery.asCreated(row)));
    }

    private Mono<TaskRecord> taskOfAnyOwner(AgentId agent, String taskId) {
        TaskId task;
        try {
            task = new TaskId(UUID.fromString(taskId));
        } catch (IllegalArgumentException notATask) {
            return Mono.error(new ApiException(ErrorCode.AGENT_NOT_FOUND, "No task " + taskId));
        }
        return tasks.find(task).filter(found -> found.agentId().equals(agent))
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.AGENT_NOT_FOUND, "No task " + taskId + " of agent " + agent)));
    }

    private Mono<WebhookRecord> webhookOf(TaskRecord task, WebhookId webhook) {
        return webhooks.find(webhook).filter(found -> found.taskId().equals(task.id()) && !found.removed())
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No webhook " + webhook + " on task " + task.id())));
    }


    private ApiException notVisibleYet() {
        return ApiException.notVisibleYet("The change", Map.of());
    }

    /** The contract's webhook registration: {@code token} and {@code secret} are write-only. */
    record Registration(String url, String token, String secret) {
    }

    /** A page of a task's webhooks; {@code next_cursor} is null on the last page. */
    record WebhookList(List<WebhookView.Webhook> webhooks, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }
}
