package org.agentplatform.kernel.task;

/**
 * Why a task failed, as the contract's error code a blocking call would answer ({@code agent_offline},
 * {@code agent_service_unavailable}, {@code agent_not_found}, {@code internal_error}), or
 * {@link #AGENT_REPLY_ERROR} when the agent itself reported the failure in band.
 */
public record TaskFailure(String code, String message) {

    public static final String AGENT_REPLY_ERROR = "agent_reply_error";

    public boolean isAgentReported() {
        return AGENT_REPLY_ERROR.equals(code);
    }
}
