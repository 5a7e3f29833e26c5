package org.agentplatform.command.operation;

import java.util.List;
import org.agentplatform.kernel.operation.OperationError;

/** What a runtime answered to a call. */
public sealed interface RuntimeOutcome {

    /** The runtime applied the method; {@code result} is its JSON answer. */
    record Committed(Object result) implements RuntimeOutcome {
    }

    /** The runtime refused the method and applied nothing. */
    record Refused(String code, String message, String retryMode, OperationError.Context context) implements RuntimeOutcome {
    }

    /** The runtime applied some writes of the method and failed others; the applied ones stay in effect. */
    record PartiallyApplied(String code, String message, List<HarnessOperation> operations) implements RuntimeOutcome {
    }

    /** A cancel reached the runtime before it committed: nothing was applied. */
    record Aborted() implements RuntimeOutcome {
    }

    /** One write of a harness call and how it went. */
    record HarnessOperation(String kind, String name, String status, String code, String message) {
    }
}
