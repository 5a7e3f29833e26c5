package org.agentplatform.api.processor;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.ApiResponse;
import org.agentplatform.kernel.error.ErrorCode;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The node's event processors, for the console's operators' page and for monitoring: where each stands, the segments it
 * holds, and what it has parked ({@code GET /api/v1/processors}); a retry of the parked events
 * ({@code POST /api/v1/processors/{name}/dead-letters/retry}, 202: the nodes apply it within a second). Counts only: a
 * parked event's payload and cause may be another owner's, so neither is shown (the CLI's {@code deadletters list} shows
 * them to the operator).
 */
@RestController
final class ProcessorRoutes {

    private final NodeProcessors processors;

    ProcessorRoutes(NodeProcessors processors) {
        this.processors = processors;
    }

    @GetMapping("/api/v1/processors")
    Mono<ApiResponse<ProcessorList>> list(@AuthenticationPrincipal Caller caller) {
        return processors.processors().map(all -> ApiResponse.of(new ProcessorList(all.stream().map(ProcessorView::of).toList())));
    }

    @PostMapping("/api/v1/processors/{name}/dead-letters/retry")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<ApiResponse<RetryView>> retry(@AuthenticationPrincipal Caller caller, @PathVariable String name) {
        return processors.retryDeadLetters(name)
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.NOT_FOUND, "No processor " + name)))
                .map(retry -> ApiResponse.of(new RetryView(retry.id(), retry.processor(), retry.requestedAt())));
    }

    record ProcessorList(List<ProcessorView> processors) {
    }

    /** A processor on the wire; {@code position} and {@code lag} are null when this node holds none of its segments. */
    record ProcessorView(String name, long head, @Nullable Long position, @Nullable Long lag, int segments,
            @JsonProperty("segments_here") int segmentsHere, @JsonProperty("parked_events") long parkedEvents,
            @JsonProperty("parked_sequences") long parkedSequences, @JsonProperty("oldest_parked_at") @Nullable Instant oldestParkedAt) {

        static ProcessorView of(NodeProcessors.Processor processor) {
            return new ProcessorView(processor.name(), processor.head(), processor.position(), processor.lag(), processor.segments(),
                    processor.segmentsHere(), processor.parkedEvents(), processor.parkedSequences(), processor.oldestParkedAt());
        }
    }

    record RetryView(@JsonProperty("retry_id") long retryId, String processor, @JsonProperty("requested_at") Instant requestedAt) {
    }
}
