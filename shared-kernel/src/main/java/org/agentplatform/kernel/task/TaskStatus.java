package org.agentplatform.kernel.task;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A task's lifecycle as data: {@code queued -> running -> {input_required, auth_required} -> queued -> running ->
 * completed | failed | canceled | timeout | rejected}. A task is {@code queued} while its turn waits for a runtime worker,
 * {@code running} while the agent works on it (tasks stored before this distinction went from input_required straight to
 * running). The last five are terminal; a caller cancels any
 * task that is not, and continues one that waits for input or authorization.
 */
public enum TaskStatus {
    QUEUED("queued"),
    RUNNING("running"),
    INPUT_REQUIRED("input_required"),
    AUTH_REQUIRED("auth_required"),
    COMPLETED("completed"),
    FAILED("failed"),
    CANCELED("canceled"),
    TIMEOUT("timeout"),
    REJECTED("rejected");

    private static final Map<TaskStatus, Set<TaskStatus>> NEXT = Map.of(
            QUEUED, EnumSet.of(RUNNING, FAILED, CANCELED, TIMEOUT, REJECTED),
            RUNNING, EnumSet.of(INPUT_REQUIRED, AUTH_REQUIRED, COMPLETED, FAILED, CANCELED, TIMEOUT, REJECTED),
            INPUT_REQUIRED, EnumSet.of(QUEUED, RUNNING, CANCELED, TIMEOUT),
            AUTH_REQUIRED, EnumSet.of(QUEUED, RUNNING, CANCELED, TIMEOUT),
            COMPLETED, EnumSet.noneOf(TaskStatus.class),
            FAILED, EnumSet.noneOf(TaskStatus.class),
            CANCELED, EnumSet.noneOf(TaskStatus.class),
            TIMEOUT, EnumSet.noneOf(TaskStatus.class),
            REJECTED, EnumSet.noneOf(TaskStatus.class));

    private final String wireName;

    TaskStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean canBecome(TaskStatus next) {
        return NEXT.get(this).contains(next);
    }

    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    /** Waiting for the caller: only these can be continued. */
    public boolean awaitsCaller() {
        return this == INPUT_REQUIRED || this == AUTH_REQUIRED;
    }

    /** Nothing more happens without the caller: terminal, or waiting for the caller (what a synchronous invoke waits for). */
    public boolean isSettled() {
        return isTerminal() || awaitsCaller();
    }

    public static Optional<TaskStatus> fromWireName(String wireName) {
        for (TaskStatus status : values()) {
            if (status.wireName.equals(wireName)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
