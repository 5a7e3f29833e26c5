package org.agentplatform.api.instance;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.agentplatform.api.audit.AsOf;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.kernel.catalog.Provider;
import org.agentplatform.kernel.catalog.ProviderCatalog;
import org.agentplatform.kernel.catalog.Region;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceCommand.DeployInstance;
import org.agentplatform.kernel.instance.InstanceCommand.DestroyInstance;
import org.agentplatform.kernel.instance.InstanceCommand.RestartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StopInstance;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.instance.InstanceReads;
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
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Instances: deploy (from the catalog), list, get, start, stop, restart, destroy. Another owner's
 * instance is 404; a transition the lifecycle does not allow is 409 {@code conflict}. Each change
 * answers the instance as the read model has it after the change; when the read model does not show it within
 * {@link #READ_MODEL_WAIT}, 504 {@code service_timeout} with {@code Retry-After} and the instance's id in
 * {@code metadata.instance_id} (a deploy's too, so that the caller can read it later). A read of an instance the event
 * store holds and the read model does not show yet waits for it likewise, never 404.
 */
@RestController
final class InstanceRoutes {

    static final Duration READ_MODEL_WAIT = Duration.ofSeconds(5);

    private final Commands commands;
    private final InstanceReads instances;
    private final ProviderCatalog catalog;

    private final PointInTime pointInTime;

    InstanceRoutes(Commands commands, InstanceReads instances, ProviderCatalog catalog, PointInTime pointInTime) {
        this.pointInTime = pointInTime;
        this.commands = commands;
        this.instances = instances;
        this.catalog = catalog;
    }

    @PostMapping(path = "/api/v1/instances", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse<InstanceView>> deploy(@AuthenticationPrincipal Caller caller, @RequestBody DeployRequest request,
            @Parameter(schema = @Schema(type = "string", minLength = 1, maxLength = 128))
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey, ServerWebExchange exchange) {
        Provider provider = catalog.provider(Validate.text("provider", request.provider(), 1, 128))
                .orElseThrow(() -> ApiException.invalidParam("provider", "No provider " + request.provider() + " in the catalog"));
        Region region = provider.region(Validate.text("region", request.region(), 1, 128))
                .orElseThrow(() -> ApiException.invalidParam("region", "Provider " + provider.id() + " has no region " + request.region()));
        InstanceKind kind = InstanceKind.fromWireName(Validate.text("kind", request.kind(), 1, 32))
                .orElseThrow(() -> ApiException.invalidParam("kind", "'kind' must be linux, windows, mac or android"));
        if (!region.offers(kind)) {
            throw ApiException.invalidParam("kind", "Region " + region.id() + " offers no " + kind.wireName() + " instances");
        }
        InstanceId id = idempotencyKey == null
                ? InstanceId.random()
                : InstanceId.derivedFrom("instance:" + caller.ownerId() + ":" + Validate.text("Idempotency-Key", idempotencyKey, 1, 128));
        String name = request.name() == null ? "instance-" + id.toString().substring(0, 8) : Validate.text("name", request.name(), 1, 128);
        return commands.send(new DeployInstance(id, caller.ownerId(), name, provider.id(), region.id(), kind), caller, exchange,
                        ErrorCode.NOT_FOUND)
                .then(current(caller.ownerId(), id, 0));
    }

    /** The caller's instances, destroyed ones included, newest first; {@code cursor} (a page's {@code next_cursor}) pages on. */
    @GetMapping("/api/v1/instances")
    Mono<ApiResponse<InstanceList>> list(@AuthenticationPrincipal Caller caller,
            @ParameterObject PageParams paging) {
        QueryParams.PageRequest page = paging.request();
        return instances.list(caller.ownerId(), page.before(), page.limit())
                .map(found -> ApiResponse.of(new InstanceList(found.items().stream().map(InstanceView::of).toList(), found.nextCursor())));
    }

    @GetMapping("/api/v1/instances/{instanceId}")
    Mono<ApiResponse<InstanceView>> get(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @RequestParam(name = AsOf.PARAM, required = false) String asOf) {
        InstanceId id = PathIds.parse("instanceId", instanceId, InstanceId::new);
        Instant at = AsOf.parse(asOf);
        return instances.findAccepted(caller.ownerId(), id, READ_MODEL_WAIT)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No instance " + instanceId)))
                .flatMap(found -> at == null ? Mono.just(found) : AsOf.read(() -> pointInTime.instance(id, at), "Instance " + instanceId, at))
                .map(InstanceView::of)
                .map(ApiResponse::of);
    }

    @PostMapping("/api/v1/instances/{instanceId}/start")
    Mono<ApiResponse<InstanceView>> start(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            ServerWebExchange exchange) {
        return change(caller, instanceId, exchange, id -> new StartInstance(id, caller.ownerId()));
    }

    @PostMapping("/api/v1/instances/{instanceId}/stop")
    Mono<ApiResponse<InstanceView>> stop(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            ServerWebExchange exchange) {
        return change(caller, instanceId, exchange, id -> new StopInstance(id, caller.ownerId()));
    }

    @PostMapping("/api/v1/instances/{instanceId}/restart")
    Mono<ApiResponse<InstanceView>> restart(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            ServerWebExchange exchange) {
        return change(caller, instanceId, exchange, id -> new RestartInstance(id, caller.ownerId()));
    }

    @DeleteMapping("/api/v1/instances/{instanceId}")
    Mono<ApiResponse<InstanceView>> destroy(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            ServerWebExchange exchange) {
        return change(caller, instanceId, exchange, id -> new DestroyInstance(id, caller.ownerId()));
    }

    private Mono<ApiResponse<InstanceView>> change(Caller caller, String instanceId, ServerWebExchange exchange,
            Function<InstanceId, Object> command) {
        InstanceId id = PathIds.parse("instanceId", instanceId, InstanceId::new);
        return commands.<Long>send(command.apply(id), caller, exchange, ErrorCode.NOT_FOUND)
                .flatMap(version -> current(caller.ownerId(), id, version));
    }

    private Mono<ApiResponse<InstanceView>> current(OwnerId owner, InstanceId id, long version) {
        return instances.awaitVersion(owner, id, version, READ_MODEL_WAIT)
                .switchIfEmpty(Mono.error(() -> ApiException.notVisibleYet("The change", Map.of("instance_id", id.toString()))))
                .map(InstanceView::of)
                .map(ApiResponse::of);
    }

    record DeployRequest(String name, String provider, String region, String kind) {
    }

    /** A page of instances; {@code next_cursor} is null on the last page. */
    record InstanceList(List<InstanceView> instances, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }
}
