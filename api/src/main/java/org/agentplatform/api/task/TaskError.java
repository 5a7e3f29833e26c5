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
        // the contract's invoke mapping: agent offline, misconfigured, stream unavailable are all 503
        // agent_service_unavailable, the message says which (the stored failure keeps the runtime's own code)
        String said = message == null ? "The task failed" : message;
        return switch (code == null ? "" : code) {
            case "agent_offline" -> unavailable("The agent is offline: " + said);
            case "agent_not_found" -> unavailable("The agent is misconfigured: " + said);
            case "agent_service_unavailable" -> unavailable(said);
            default -> new TaskError(ErrorCode.INTERNAL_ERROR.wireName(), ErrorCode.INTERNAL_ERROR.httpStatus(), said);
        };
    }

    private static TaskError unavailable(String message) {
        return new TaskError(ErrorCode.AGENT_SERVICE_UNAVAILABLE.wireName(), ErrorCode.AGENT_SERVICE_UNAVAILABLE.httpStatus(), message);
    }
}
