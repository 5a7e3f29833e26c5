package org.agentplatform.kernel.operation;

/** What the runtime operation has done to the runtime so far, whatever the platform's follow-up. */
public enum EffectState {
    QUEUED("queued"),
    RUNNING("running"),
    COMMITTED("committed"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    EXPIRED("expired"),
    OUTCOME_UNKNOWN("outcome_unknown");

    private final String wireName;

    EffectState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
