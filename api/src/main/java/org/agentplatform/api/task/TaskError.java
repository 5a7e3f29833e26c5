package org.agentplatform.api.task;

import java.util.Optional;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.query.task.TaskRecord;

/**
 * How a task that ended badly reads on the wire: the code and HTTP status a blocking call answers (the
 * contract's invoke failure mapping), or {@code agent_reply_error} when the agent itself reported the
 * failure (the call succeeded; the agent's text is the answer).
 */
record TaskError(String code, int httpStatus, String message) {

    boolean isAgentReported() {
        return TaskFailure.AGENT_REPLY_ERROR.equals(code);
    }

    ErrorCode errorCode() {
        return ErrorCode.fromWireName(code).orElse(ErrorCode.INTERNAL_ERROR);
    }

    static Optional<TaskError> of(TaskRecord task) {
        String message = task.errorMessage();
        return Optional.ofNullable(switch (task.status()) {
            case FAILED -> failed(task.errorCode(), message);
            case REJECTED -> new TaskError(ErrorCode.CONFLICT.wireName(), 409,
                    "Task rejected: " + (message == null ? "the agent declined it" : message));
            case CANCELED -> new TaskError(ErrorCode.CONFLICT.wireName(), 409,
                    "Task closed: it was canceled" + (message == null ? "" : " (" + message + ")"));
            case TIMEOUT -> new TaskError(ErrorCode.SERVICE_TIMEOUT.wireName(), 504, "Task closed: its deadline passed before it finished");
            default -> null;
        });
    }

    private static TaskError failed(String code, String message) {
        if (TaskFailure.AGENT_REPLY_ERROR.equals(code)) {
            return new TaskError(code, 200, message);
        }
        ErrorCode known = switch (code == null ? "" : code) {
            case "agent_offline" -> ErrorCode.AGENT_OFFLINE;
            case "agent_service_unavailable" -> ErrorCode.AGENT_SERVICE_UNAVAILABLE;
            case "agent_not_found" -> ErrorCode.AGENT_NOT_FOUND;
            default -> ErrorCode.INTERNAL_ERROR;
        };
        return new TaskError(known.wireName(), known.httpStatus(), message == null ? "The task failed" : message);
    }
}
