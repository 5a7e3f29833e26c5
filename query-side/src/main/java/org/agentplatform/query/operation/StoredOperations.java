package org.agentplatform.query.operation;

import java.util.Optional;
import org.agentplatform.kernel.operation.OperationId;

/**
 * Port: an operation as its events in the store make it, folded by the operation projection itself (blocking), for a read
 * the read model has not caught up with: an operation the service queued is never "not found" however far its view lags.
 */
@FunctionalInterface
public interface StoredOperations {

    /** Empty for an operation the store does not hold. */
    Optional<OperationRecord> fold(OperationId operationId);
}
