package org.agentplatform.api.audit;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.query.audit.AuditResource;
import org.agentplatform.query.audit.AuditTrail;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The auditor's reads of the caller's own events: the history (of one resource, or all), paged by chain position, and
 * the NDJSON export of a time range for a SIEM, each line re-checkable against the audit chain (docs/audit.md).
 */
@RestController
final class AuditRoutes {

    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;
    private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

    private final AuditTrail trail;
    private final JsonMapper json;

    AuditRoutes(AuditTrail trail, JsonMapper json) {
        this.trail = trail;
        this.json = json;
    }

    /**
     * {@code resource_type} and {@code resource_id} narrow it to one resource (an id needs its type; a resource of
     * another owner, or none, is 404); {@code since} is the position after which to read ({@code next_since} of the
     * previous page); {@code limit} in [1, 1000], default 100.
     */
    @GetMapping("/api/v1/audit/events")
    Mono<ApiResponse<Map<String, Object>>> events(@AuthenticationPrincipal Caller caller,
            @RequestParam(name = "resource_type", required = false) String resourceType,
            @RequestParam(name = "resource_id", required = false) String resourceId,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @RequestParam(required = false) String since,
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit) {
        String type = resourceType == null ? null : AuditResource.parse(resourceType).orElseThrow(() -> ApiException.invalidParam(
                "resource_type", "'resource_type' must be one of " + String.join(", ", AuditResource.TYPES.stream().sorted().toList())));
        if (resourceId != null && type == null) {
            throw ApiException.missingParam("resource_type");
        }
        long after = since == null ? 0 : StreamResume.offset("since", since);
        int clamped = QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        Mono<Boolean> visible = resourceId == null ? Mono.just(true) : trail.owns(caller.ownerId(), type, resourceId);
        return visible.flatMap(owned -> owned
                ? trail.history(caller.ownerId(), type, resourceId, after, clamped).collectList()
                : Mono.error(ApiException.notFound("No " + type + " " + resourceId)))
                .map(entries -> ApiResponse.of(page(entries, after)));
    }

    /** Every event of the caller that occurred in [{@code since}, {@code until}) (RFC 3339; either may be absent), one JSON per line. */
    @GetMapping("/api/v1/audit/export")
    @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "200", description = "One JSON audit entry a line (NDJSON)",
            content = @Content(mediaType = "application/x-ndjson", schema = @Schema(type = "string")))
    ResponseEntity<Flux<DataBuffer>> export(@AuthenticationPrincipal Caller caller,
            @Parameter(schema = @Schema(type = "string", format = "date-time")) @RequestParam(required = false) String since,
            @Parameter(schema = @Schema(type = "string", format = "date-time")) @RequestParam(required = false) String until) {
        Instant from = QueryParams.instant("since", since);
        Instant to = QueryParams.instant("until", until);
        Flux<DataBuffer> lines = trail.export(caller.ownerId(), from, to)
                .map(entry -> {
                    byte[] line = json.writeValueAsBytes(AuditView.exported(entry, json));
                    return DefaultDataBufferFactory.sharedInstance.allocateBuffer(line.length + 1).write(line).write((byte) '\n');
                });
        return ResponseEntity.ok().contentType(NDJSON).body(lines);
    }

    /**
     * The chain's signed heads, newest first: each {@code jws} is a compact JWS (RS256) whose claims are the head's
     * {@code position}, {@code global_index} and {@code link}, verifiable with {@code /.well-known/jwks.json}.
     */
    @GetMapping("/api/v1/audit/checkpoints")
    Mono<ApiResponse<Map<String, Object>>> checkpoints(
            @Parameter(schema = @Schema(type = "integer", format = "int64")) @RequestParam(required = false) String limit) {
        int clamped = QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        return trail.checkpoints(clamped)
                .map(checkpoint -> {
                    Map<String, Object> view = new LinkedHashMap<>();
                    view.put("position", checkpoint.position());
                    view.put("global_index", checkpoint.globalIndex());
                    view.put("link", HexFormat.of().formatHex(checkpoint.link()));
                    view.put("signed_at", checkpoint.signedAt().toString());
                    view.put("jws", checkpoint.jws());
                    return view;
                })
                .collectList()
                .map(list -> ApiResponse.of(Map.<String, Object>of("checkpoints", list)));
    }

    private Map<String, Object> page(List<AuditTrail.Entry> entries, long after) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("events", entries.stream().map(entry -> AuditView.event(entry, json)).toList());
        page.put("next_since", entries.isEmpty() ? after : entries.getLast().position());
        return page;
    }
}
