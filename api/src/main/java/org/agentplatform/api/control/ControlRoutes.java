package org.agentplatform.api.control;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.kernel.control.ControlAction;
import org.agentplatform.kernel.control.ControlActionPerformed;
import org.agentplatform.kernel.control.ControlSurface;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.instance.InstanceReads;
import org.agentplatform.query.instance.InstanceRecord;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Computer (linux, windows, mac) and mobile (android) control: the live geometry and action set, screenshots, and
 * the atomic actions. The wrong surface for the instance's kind, an unknown or another owner's instance: 404. A
 * stopped instance: 409 {@code conflict}. Each request that would reach the device takes one from the owner's
 * budget first ({@link ControlBudget}: geometry and screenshots from {@code info}, the rest from the actions'); its
 * answer carries {@code X-RateLimit-*}. Each atomic action that reached the device is recorded as an event.
 */
@RestController
final class ControlRoutes {

    private static final String LIMIT = "X-RateLimit-Limit";
    private static final String REMAINING = "X-RateLimit-Remaining";
    private static final String RESET = "X-RateLimit-Reset";
    /** How long a device may take before the request answers 504 (a device that never answers). */
    private static final Duration DEVICE_PATIENCE = Duration.ofSeconds(15);

    private final InstanceReads instances;
    private final Devices devices;
    private final ControlBudget budget;
    private final EventGateway events;

    ControlRoutes(InstanceReads instances, Devices devices, ControlBudget budget, EventGateway events) {
        this.instances = instances;
        this.devices = devices;
        this.budget = budget;
        this.events = events;
    }

    @GetMapping("/api/v1/instances/{instanceId}/{surface:computer|mobile}")
    Mono<ApiResponse<Map<String, Object>>> info(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String surface, ServerWebExchange exchange) {
        ControlSurface drives = ControlSurface.fromWireName(surface).orElseThrow();
        return controllable(caller, instanceId, drives)
                .flatMap(instance -> admitted(caller, ControlBudget.Bucket.INFO, exchange).then(device(devices.screen(instance))))
                .onErrorMap(Devices.DeviceFailure.class, ControlRoutes::refusal)
                .map(screen -> ApiResponse.of(geometry(drives, screen)));
    }

    @PostMapping("/api/v1/instances/{instanceId}/{surface:computer|mobile}/screenshot")
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200",
            description = "The screen as JSON (the PNG in base64), or the PNG itself when `Accept` names image/png", content = {
                    @Content(mediaType = "application/json", schema = @Schema(implementation = ScreenshotAnswer.class)),
                    @Content(mediaType = "image/png", schema = @Schema(type = "string", format = "binary"))})
    Mono<ResponseEntity<?>> screenshot(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String surface, ServerWebExchange exchange) {
        ControlSurface drives = ControlSurface.fromWireName(surface).orElseThrow();
        boolean png = exchange.getRequest().getHeaders().getAccept().stream()
                .anyMatch(accepted -> !accepted.isWildcardType() && accepted.isCompatibleWith(MediaType.IMAGE_PNG));
        return controllable(caller, instanceId, drives)
                .flatMap(instance -> admitted(caller, ControlBudget.Bucket.INFO, exchange).then(device(devices.screenshot(instance))))
                .onErrorMap(Devices.DeviceFailure.class, ControlRoutes::refusal)
                .map(shot -> png
                        ? ResponseEntity.ok().contentType(MediaType.IMAGE_PNG).body(shot.png())
                        : ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(new ScreenshotAnswer(true, new ScreenshotView("png",
                                shot.width(), shot.height(), Base64.getEncoder().encodeToString(shot.png())))));
    }

    /** A screenshot as JSON. */
    record ScreenshotView(String format, int width, int height, @JsonProperty("data_b64") String dataB64) {
    }

    /**
     * The success envelope of a screenshot: the route answers two media types, so its signature cannot name this body
     * and the document takes it from here.
     */
    record ScreenshotAnswer(boolean success, ScreenshotView data) {
    }

    @PostMapping("/api/v1/instances/{instanceId}/{surface:computer|mobile}/{action}")
    Mono<ApiResponse<Map<String, Object>>> act(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String surface, @PathVariable String action, @RequestBody(required = false) Map<String, Object> body,
            ServerWebExchange exchange) {
        ControlSurface drives = ControlSurface.fromWireName(surface).orElseThrow();
        ControlAction named = ControlAction.fromWireName(action).filter(found -> found.belongsTo(drives) && !found.isInfo())
                .orElseThrow(() -> ApiException.notFound("No " + surface + " action " + ControlRequests.abbreviated(action) + "; the actions are "
                        + String.join(", ", ControlAction.of(drives).stream().map(ControlAction::wireName).toList())));
        return controllable(caller, instanceId, drives)
                .flatMap(instance -> device(devices.screen(instance))
                        .map(screen -> ControlRequests.action(named, body, screen))
                        .flatMap(checked -> admitted(caller, ControlBudget.Bucket.ACTIONS, exchange)
                                .then(device(devices.perform(instance, checked))
                                        .onErrorResume(Devices.DeviceFailure.class, failure -> record(caller, exchange, instance, drives,
                                                checked, failure.code()).then(Mono.error(failure))))
                                .then(record(caller, exchange, instance, drives, checked, ControlActionPerformed.PERFORMED))
                                .thenReturn(performed(instance, drives, checked))))
                .onErrorMap(Devices.DeviceFailure.class, ControlRoutes::refusal)
                .map(ApiResponse::of);
    }

    /** The caller's instance of a kind this surface drives, running; 404 or 409 otherwise. */
    private Mono<InstanceRecord> controllable(Caller caller, String instanceId, ControlSurface surface) {
        InstanceId id = PathIds.parse("instanceId", instanceId, InstanceId::new);
        return instances.find(caller.ownerId(), id)
                .filter(instance -> surface.drives(instance.kind()))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No " + (surface == ControlSurface.COMPUTER ? "desktop" : "android")
                        + " instance " + instanceId)))
                .flatMap(instance -> instance.status() == InstanceStatus.RUNNING ? Mono.just(instance)
                        : Mono.error(new ApiException(ErrorCode.CONFLICT, "Instance " + instanceId + " is " + instance.status().wireName()
                                + "; start it to control its screen")));
    }

    /** Takes one from the budget (headers set either way); 429 when it is spent, 503 when the budget's store fails. */
    private Mono<Void> admitted(Caller caller, ControlBudget.Bucket bucket, ServerWebExchange exchange) {
        return budget.take(caller.ownerId(), bucket)
                .onErrorMap(failure -> !(failure instanceof ApiException), failure -> new ApiException(
                        ErrorCode.CONTROL_RATE_LIMIT_UNAVAILABLE, "The control budget cannot be checked right now; nothing was sent to the device"))
                .flatMap(decision -> {
                    HttpHeaders headers = exchange.getResponse().getHeaders();
                    headers.set(LIMIT, Integer.toString(decision.limit()));
                    headers.set(REMAINING, Integer.toString(decision.remaining()));
                    headers.set(RESET, Long.toString(decision.resetSeconds()));
                    return decision.admitted() ? Mono.<Void>empty() : Mono.error(new ApiException(ErrorCode.RATE_LIMITED,
                            "The owner's " + bucket.wireName() + " control budget (" + bucket.perMinute() + " per minute) is spent; retry after "
                                    + decision.retryAfterSeconds() + "s", "", Map.of("bucket", bucket.wireName(), "retry_after_seconds",
                                    Long.toString(decision.retryAfterSeconds())), decision.retryAfterSeconds()));
                });
    }

    /** A device call, bounded: a device that does not answer in time is 504. */
    private static <T> Mono<T> device(Mono<T> call) {
        return call.timeout(DEVICE_PATIENCE).onErrorMap(TimeoutException.class, late -> new ApiException(ErrorCode.SERVICE_TIMEOUT,
                "The instance's device did not answer within " + DEVICE_PATIENCE.toSeconds() + "s"));
    }

    /** The action as an event with who did it (metadata); typed text only as its length. */
    private Mono<Void> record(Caller caller, ServerWebExchange exchange, InstanceRecord instance, ControlSurface surface,
            DeviceAction action, String outcome) {
        ControlActionPerformed performed = new ControlActionPerformed(instance.id(), caller.ownerId(), surface, action.action(),
                action.audited(), outcome);
        return Mono.<Void>fromRunnable(() -> events.publish(GenericEventMessage.asEventMessage(performed)
                        .andMetaData(Commands.audit(caller, exchange))))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private static Map<String, Object> geometry(ControlSurface surface, Devices.Screen screen) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("width", screen.width());
        info.put("height", screen.height());
        if (screen.cursor() != null) {
            info.put("cursor", Map.of("x", screen.cursor().x(), "y", screen.cursor().y()));
        }
        if (screen.orientation() != null) {
            info.put("orientation", screen.orientation());
        }
        info.put("actions", ControlAction.of(surface).stream().map(ControlAction::wireName).toList());
        if (screen.buttons() != null && !screen.buttons().isEmpty()) {
            info.put("buttons", screen.buttons());
        }
        if (screen.display() != null) {
            info.put("display", screen.display());
        }
        return info;
    }

    private static Map<String, Object> performed(InstanceRecord instance, ControlSurface surface, DeviceAction action) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("instance_id", instance.id().toString());
        answer.put("surface", surface.wireName());
        answer.put("action", action.action().wireName());
        answer.put("performed", true);
        return answer;
    }

    private static ApiException refusal(Devices.DeviceFailure failure) {
        ErrorCode code = ErrorCode.fromWireName(failure.code()).orElse(ErrorCode.AGENT_SERVICE_UNAVAILABLE);
        return new ApiException(code, failure.getMessage());
    }
}
