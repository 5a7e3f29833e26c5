package org.agentplatform.kernel.operation;

/** How far the platform reflects a committed operation. */
public enum ProjectionState {
    NOT_APPLICABLE("not_applicable"),
    PENDING("pending"),
    APPLIED("applied"),
    BLOCKED("blocked");

    private final String wireName;

    ProjectionState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
