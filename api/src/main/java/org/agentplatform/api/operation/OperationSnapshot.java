package org.agentplatform.api.operation;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.agentplatform.api.web.SealedTexts;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.query.operation.OperationRecord;
import org.jspecify.annotations.Nullable;

/**
 * The runtime operation snapshot on the wire: every field of the contract's table, camelCase,
 * {@code sequence}/{@code cursor} as decimal strings. Absent parts are null.
 */
public record OperationSnapshot(
        String id,
        String instanceId,
        Target target,
        String method,
        String capability,
        String transport,
        String sequence,
        @Schema(format = "date-time") String createdAt,
        @Schema(format = "date-time") String updatedAt,
        String status,
        String effectState,
        boolean terminal,
        String cursor,
        Progress progress,
        @Nullable Map<String, Object> cancelRequest,
        @Nullable Map<String, Object> projection,
        @Nullable Object result,
        @Nullable Map<String, Object> error) {

    /** Every operation is dispatched through this service. */
    static final String TRANSPORT = "service";
    static final int PHASES = 4;

    public record Target(String scope, String instanceId) {
    }

    public record Progress(String sequence, String phase, int current, int total) {
    }

    /** The operation for its owner: {@code open} opens the owner's sealed texts in its result (a cron run's output). */
    public static OperationSnapshot of(OperationRecord operation, UnaryOperator<String> open) {
        String sequence = Long.toString(operation.sequence());
        OperationStatus status = operation.status();
        return new OperationSnapshot(
                operation.id().toString(),
                operation.instanceId().toString(),
                new Target("instance", operation.instanceId().toString()),
                operation.method().wireName(),
                operation.method().capability().wireName(),
                TRANSPORT,
                sequence,
                operation.createdAt().toString(),
                operation.updatedAt().toString(),
                status.wireName(),
                status.effectState().wireName(),
                status.isTerminal(),
                sequence,
                new Progress(sequence, status.wireName(), phase(status), PHASES),
                operation.cancelRequest(),
                operation.projection(),
                SealedTexts.opened(operation.result(), open),
                operation.error());
    }

    /** 1 queued, 2 dispatched, 3 committed by the runtime, 4 done (whatever the outcome). */
    static int phase(OperationStatus status) {
        if (status.isTerminal()) {
            return PHASES;
        }
        return switch (status) {
            case QUEUED -> 1;
            case RUNNING -> 2;
            default -> 3;
        };
    }
}
