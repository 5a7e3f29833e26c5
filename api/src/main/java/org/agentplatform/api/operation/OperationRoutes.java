package org.agentplatform.api.operation;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentplatform.api.audit.AsOf;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.openapi.OpenApiConfiguration;
import org.agentplatform.api.web.EventStreams;
import org.agentplatform.api.web.PathIds;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationCommand.CancelAnswer;
import org.agentplatform.kernel.operation.OperationCommand.RequestOperationCancel;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.audit.PointInTime;
import org.agentplatform.query.operation.OperationReads;
import org.agentplatform.query.operation.OperationRecord;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A runtime operation: its snapshot, its cancel (idempotent by {@code Idempotency-Key}; possible until
 * the runtime commits), and its durable event stream, resumable with {@code Last-Event-ID}.
 */
@RestController
final class OperationRoutes {


    private final Commands commands;
    private final OperationReads operations;
    private final OperationStream stream;
    private final PersonalContent content;
    private final JsonMapper json;

    private final PointInTime pointInTime;

    OperationRoutes(Commands commands, OperationReads operations, OperationStream stream, JsonMapper json, PointInTime pointInTime,
            PersonalContent content) {
        this.content = content;
        this.pointInTime = pointInTime;
        this.commands = commands;
        this.operations = operations;
        this.stream = stream;
        this.json = json;
    }

    @GetMapping("/api/v1/instances/{instanceId}/operations/{operationId}")
    Mono<OperationSnapshot> get(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String operationId, @RequestParam(name = AsOf.PARAM, required = false) String asOf) {
        Instant at = AsOf.parse(asOf);
        if (at != null) {
            return find(caller, instanceId, operationId)
                    .flatMap(operation -> AsOf.read(() -> pointInTime.operation(operation.id(), at), "Operation " + operationId, at))
                    .map(operation -> OperationSnapshot.of(operation, content.opener(caller.ownerId())));
        }
        return find(caller, instanceId, operationId).map(operation -> OperationSnapshot.of(operation, content.opener(caller.ownerId())));
    }

    @PostMapping("/api/v1/instances/{instanceId}/operations/{operationId}/cancel")
    @ApiResponse(responseCode = "200", description = "OK", useReturnTypeSchema = true)
    @ApiResponse(responseCode = "409", description = "The operation is not cancellable (the contract's flat body)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.OPERATION_CONFLICT)))
    Mono<ResponseEntity<Map<String, Object>>> cancel(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String operationId,
            // required, as the document says; checked here so a missing key is the envelope's missing_param naming it
            @Parameter(required = true, schema = @Schema(type = "string", minLength = 1, maxLength = 128))
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey, ServerWebExchange exchange) {
        if (idempotencyKey == null) {
            throw ApiException.missingParam("Idempotency-Key");
        }
        if (idempotencyKey.isEmpty() || idempotencyKey.length() > 128) {
            throw ApiException.invalidParam("Idempotency-Key", "'Idempotency-Key' must be 1 to 128 characters");
        }
        return find(caller, instanceId, operationId)
                .flatMap(operation -> commands.<CancelAnswer>send(new RequestOperationCancel(operation.id(), caller.ownerId(),
                                caller.credentialId(), idempotencyKey, null), caller, exchange, ErrorCode.NOT_FOUND)
                        .map(answer -> answer.accepted()
                                ? ResponseEntity.ok(Map.<String, Object>of("status", "cancel_requested", "operationId", operationId))
                                : flat(HttpStatus.CONFLICT, "OPERATION_NOT_CANCELLABLE", operationId, Map.of())));
    }

    @GetMapping("/api/v1/instances/{instanceId}/operations/{operationId}/events")
    @ApiResponse(responseCode = "409", description = "The resume cursor is past the operation's last event (the contract's flat body)",
            content = @Content(schema = @Schema(ref = OpenApiConfiguration.OPERATION_CONFLICT)))
    Mono<ResponseEntity<Flux<DataBuffer>>> events(@AuthenticationPrincipal Caller caller, @PathVariable String instanceId,
            @PathVariable String operationId, @RequestHeader(name = StreamResume.HEADER, required = false) String lastEventId) {
        long cursor = StreamResume.afterSequence(lastEventId);
        return find(caller, instanceId, operationId).map(operation -> {
            if (cursor > operation.sequence()) {
                ResponseEntity<Map<String, Object>> ahead = flat(HttpStatus.CONFLICT, "OPERATION_CURSOR_AHEAD", operationId,
                        Map.of("cursor", Long.toString(cursor), "lastSequence", Long.toString(operation.sequence())));
                // the route's body is a stream of bytes (the frames), so the refusal is written as bytes too
                return ResponseEntity.status(ahead.getStatusCode()).headers(ahead.getHeaders())
                        .body(Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(json.writeValueAsBytes(ahead.getBody()))));
            }
            boolean finished = operation.status().isTerminal() && cursor == operation.sequence();
            return finished ? EventStreams.finished() : EventStreams.of(stream.after(operation.id(), cursor, content.opener(caller.ownerId())));
        });
    }

    private Mono<OperationRecord> find(Caller caller, String instanceId, String operationId) {
        InstanceId instance = PathIds.parse("instanceId", instanceId, InstanceId::new);
        OperationId operation = PathIds.parse("operationId", operationId, OperationId::new);
        return operations.findAccepted(operation)
                .filter(found -> found.instanceId().equals(instance) && found.ownerId().equals(caller.ownerId()))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No operation " + operationId + " on instance " + instanceId)));
    }

    /** The contract's flat 409 bodies: {@code {code, operationId, ..., httpStatus}}. */
    private static ResponseEntity<Map<String, Object>> flat(HttpStatus status, String code, String operationId,
            Map<String, Object> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("operationId", operationId);
        body.putAll(extra);
        body.put("httpStatus", status.value());
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
