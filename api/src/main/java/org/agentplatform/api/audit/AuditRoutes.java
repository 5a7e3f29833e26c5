package org.agentplatform.api.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.api.web.PageParams;
import org.agentplatform.api.web.QueryParams;
import org.agentplatform.api.web.StreamResume;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.audit.AuditResource;
import org.agentplatform.query.audit.AuditTrail;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The auditor's reads of the caller's own events: the history (of one resource, or all), paged by chain position, and
 * the NDJSON export of a time range for a SIEM, each line re-checkable against the audit chain (docs/audit.md); the
 * signed tree heads of the log's Merkle tree, an inclusion proof for any of the caller's events and a consistency
 * proof between two tree sizes, each checkable offline with nothing but the proof (docs/audit.md, "The tree").
 */
@RestController
final class AuditRoutes {

    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;
    private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");
    private static final HexFormat HEX = HexFormat.of();
    private static final long VERIFY_RETRY_SECONDS = 5;
    /** How long a history read waits for the chain to take up a resource created a moment ago, and how often it looks. */
    private static final Duration CHAIN_WAIT = Duration.ofSeconds(5);
    private static final Duration CHAIN_POLL = Duration.ofMillis(100);

    private final AuditTrail trail;
    private final JsonMapper json;
    private final PersonalContent content;
    private final ChainVerification verification;

    AuditRoutes(AuditTrail trail, JsonMapper json, PersonalContent content, ChainVerification verification) {
        this.verification = verification;
        this.content = content;
        this.trail = trail;
        this.json = json;
    }

    /**
     * Re-checks the whole audit chain as stored now, as {@code audit verify} does (every owner's events: the chain is one).
     * {@code ok} false names the first event that no longer matches. One check at a time per node: another meanwhile is
     * 429 {@code rate_limited}. Takes about a second per 100k events.
     */
    @PostMapping("/api/v1/audit/verifications")
    Mono<ApiResponse<VerificationView>> verify(@AuthenticationPrincipal Caller caller) {
        return verification.verify()
                .switchIfEmpty(Mono.error(() -> ApiException.rateLimited(VERIFY_RETRY_SECONDS)))
                .map(result -> ApiResponse.of(new VerificationView(result.ok(), result.checked(), result.mismatch(), result.verifiedAt())));
    }

    /** A verification's outcome: {@code checked} events matched; {@code mismatch} (null when ok) names the first that did not. */
    record VerificationView(boolean ok, long checked, @Nullable String mismatch, @JsonProperty("verified_at") Instant verifiedAt) {
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
        Mono<Boolean> visible = resourceId == null ? Mono.just(true) : owned(caller.ownerId(), type, resourceId);
        return visible.flatMap(owned -> owned
                ? trail.history(caller.ownerId(), type, resourceId, after, clamped).collectList()
                : Mono.error(ApiException.notFound("No " + type + " " + resourceId)))
                .map(entries -> ApiResponse.of(page(entries, after, content.opener(caller.ownerId()))));
    }

    /**
     * Whether the resource's history is the caller's. A resource whose events are stored but not chained yet (one created
     * a moment ago) is waited for, up to {@link #CHAIN_WAIT}, rather than answered 404: then 504 {@code service_timeout},
     * to be read again after {@code Retry-After}.
     */
    private Mono<Boolean> owned(OwnerId owner, String type, String resourceId) {
        // an owner's own history is the erasures of its content, events of no aggregate; another owner's is never the caller's
        Mono<Boolean> pending = !AuditResource.OWNER.equals(type) ? trail.awaitsChaining(resourceId)
                : owner.toString().equals(resourceId) ? trail.awaitsOwnerChaining() : Mono.just(false);
        Mono<Optional<Boolean>> once = look(trail.owns(owner, type, resourceId), pending);
        long polls = CHAIN_WAIT.toMillis() / CHAIN_POLL.toMillis();
        return Flux.range(0, (int) polls)
                .concatMap(attempt -> attempt == 0 ? once : Mono.delay(CHAIN_POLL).then(once))
                .filter(Optional::isPresent)
                .next()
                .map(Optional::get)
                .switchIfEmpty(Mono.error(() -> ApiException.notVisibleYet("The " + type + "'s history", Map.of())));
    }

    /**
     * One look at a resource's history: the caller's ({@code owns}, read when subscribed), not yet (empty: its events wait
     * for the chain, {@code pending}), or not the caller's. When nothing waits, {@code owns} is read again before the answer
     * is no: the chain may have taken the events up between the first read and {@code pending}'s, and the first read then
     * said no to a history that exists (a 404 for an owner's own erasure, seen under load).
     */
    static Mono<Optional<Boolean>> look(Mono<Boolean> owns, Mono<Boolean> pending) {
        return owns.flatMap(owned -> owned ? Mono.just(Optional.of(true))
                : pending.flatMap(waiting -> waiting ? Mono.just(Optional.<Boolean>empty()) : owns.map(Optional::of)));
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
                    byte[] line = json.writeValueAsBytes(AuditView.exported(entry, json, content.opener(caller.ownerId())));
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

    /**
     * The signed tree heads, largest first: each says the Merkle tree of the first {@code tree_size} events has root
     * {@code root_hash} (hex), and its {@code jws} (RS256, {@code /.well-known/jwks.json}) signs both as claims.
     * {@code cursor} (a page's {@code next_cursor}) pages on to smaller trees.
     */
    @GetMapping("/api/v1/audit/tree-heads")
    Mono<ApiResponse<TreeHeadList>> treeHeads(@ParameterObject PageParams paging) {
        QueryParams.PageRequest page = paging.request();
        return trail.treeHeads(page.before(), page.limit() + 1)
                .map(head -> new TreeHeadView(head.treeSize(), HEX.formatHex(head.rootHash()), head.globalIndex(),
                        head.signedAt(), head.jws()))
                .collectList()
                .map(heads -> {
                    boolean more = heads.size() > page.limit();
                    List<TreeHeadView> shown = more ? heads.subList(0, page.limit()) : heads;
                    return ApiResponse.of(new TreeHeadList(shown, more ? shown.getLast().treeSize() : null));
                });
    }

    /**
     * The inclusion proof (RFC 9162 2.1.3) of the caller's event at global index {@code index} in the tree of
     * {@code tree_size} events (a signed tree head's): its {@code leaf_index}, {@code leaf_hash} and {@code audit_path},
     * bottom up, hex. Another owner's event, or one not in the log yet, is 404; a {@code tree_size} that does not hold
     * the event or is larger than the log is 400 {@code invalid_param}.
     */
    @GetMapping("/api/v1/audit/events/{index}/proof")
    Mono<ApiResponse<InclusionProofView>> inclusionProof(@AuthenticationPrincipal Caller caller,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "0")) @PathVariable String index,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1"))
            @RequestParam(name = "tree_size", required = false) String treeSize) {
        long globalIndex = whole("index", index);
        if (treeSize == null) {
            throw ApiException.missingParam("tree_size");
        }
        long size = whole("tree_size", treeSize);
        return trail.leafOf(caller.ownerId(), globalIndex)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("No event of yours at global index " + globalIndex + " in the audit log")))
                .flatMap(leaf -> trail.treeSize().flatMap(logSize -> {
                    if (size <= leaf || size > logSize) {
                        return Mono.error(ApiException.invalidParam("tree_size", "'tree_size' must be from " + (leaf + 1)
                                + " (the tree that first holds the event) to " + logSize + " (the log's size now)"));
                    }
                    return trail.inclusionProof(leaf, size).map(proof -> ApiResponse.of(new InclusionProofView(globalIndex, leaf, size,
                            HEX.formatHex(proof.leafHash()), proof.auditPath().stream().map(HEX::formatHex).toList())));
                }));
    }

    /**
     * The consistency proof (RFC 9162 2.1.4) that the tree of {@code first} events is a prefix of the tree of
     * {@code second}: nothing in the first was changed, removed or reordered since. Hex, as RFC 9162 orders it.
     */
    @GetMapping("/api/v1/audit/consistency")
    Mono<ApiResponse<ConsistencyProofView>> consistencyProof(
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1")) @RequestParam(required = false) String first,
            @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1")) @RequestParam(required = false) String second) {
        if (first == null) {
            throw ApiException.missingParam("first");
        }
        if (second == null) {
            throw ApiException.missingParam("second");
        }
        long from = whole("first", first);
        long to = whole("second", second);
        if (from < 1) {
            throw ApiException.invalidParam("first", "'first' must be at least 1");
        }
        if (to < from) {
            throw ApiException.invalidParam("second", "'second' must be at least 'first'");
        }
        return trail.treeSize().flatMap(logSize -> to > logSize
                ? Mono.error(ApiException.invalidParam("second", "'second' must be at most " + logSize + " (the log's size now)"))
                : trail.consistencyProof(from, to).map(proof -> ApiResponse.of(new ConsistencyProofView(from, to,
                        proof.stream().map(HEX::formatHex).toList()))));
    }

    /** A signed tree head. */
    record TreeHeadView(@JsonProperty("tree_size") long treeSize, @JsonProperty("root_hash") String rootHash,
            @JsonProperty("global_index") long globalIndex, @JsonProperty("signed_at") Instant signedAt, String jws) {
    }

    /** A page of signed tree heads; {@code next_cursor} is null on the last page. */
    record TreeHeadList(@JsonProperty("tree_heads") List<TreeHeadView> treeHeads, @JsonProperty("next_cursor") @Nullable Long nextCursor) {
    }

    /** An event's inclusion proof. */
    record InclusionProofView(@JsonProperty("global_index") long globalIndex, @JsonProperty("leaf_index") long leafIndex,
            @JsonProperty("tree_size") long treeSize, @JsonProperty("leaf_hash") String leafHash,
            @JsonProperty("audit_path") List<String> auditPath) {
    }

    /** A consistency proof between two tree sizes. */
    record ConsistencyProofView(long first, long second, @JsonProperty("consistency_path") List<String> consistencyPath) {
    }

    /** A whole number from 0 in {@code param}; anything else is 400 {@code invalid_param}. */
    private static long whole(String param, String value) {
        if (value.isEmpty() || value.length() > 19 || !value.chars().allMatch(Character::isDigit)) {
            throw ApiException.invalidParam(param, "'" + param + "' must be a whole number from 0");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException beyondALong) {
            throw ApiException.invalidParam(param, "'" + param + "' must be a whole number from 0");
        }
    }

    private Map<String, Object> page(List<AuditTrail.Entry> entries, long after, UnaryOperator<String> open) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("events", entries.stream().map(entry -> AuditView.event(entry, json, open)).toList());
        page.put("next_since", entries.isEmpty() ? after : entries.getLast().position());
        return page;
    }
}
