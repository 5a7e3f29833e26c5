package org.agentplatform.kernel.instance;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * An instance's lifecycle as data: {@code deploying -> running <-> stopped}, {@code running -> restarting
 * -> running}, {@code failed} when the provider gives up, {@code destroyed} for good.
 */
public enum InstanceStatus {
    DEPLOYING("deploying"),
    RUNNING("running"),
    STOPPED("stopped"),
    RESTARTING("restarting"),
    FAILED("failed"),
    DESTROYED("destroyed");

    private static final Map<InstanceStatus, Set<InstanceStatus>> NEXT = Map.of(
            DEPLOYING, EnumSet.of(RUNNING, FAILED, DESTROYED),
            RUNNING, EnumSet.of(STOPPED, RESTARTING, FAILED, DESTROYED),
            STOPPED, EnumSet.of(RUNNING, DESTROYED),
            RESTARTING, EnumSet.of(RUNNING, FAILED, DESTROYED),
            FAILED, EnumSet.of(RESTARTING, DESTROYED),
            DESTROYED, EnumSet.noneOf(InstanceStatus.class));

    private final String wireName;

    InstanceStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean canBecome(InstanceStatus next) {
        return NEXT.get(this).contains(next);
    }

    /** Whether runtime methods can run now (others wait queued until the instance runs, or expire). */
    public boolean isServing() {
        return this == RUNNING;
    }

    /** Whether the instance can never serve again, so new operations are refused outright. */
    public boolean isGone() {
        return this == DESTROYED || this == FAILED;
    }

    public static InstanceStatus fromWireName(String wireName) {
        for (InstanceStatus status : values()) {
            if (status.wireName.equals(wireName)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Unknown instance status " + wireName);
    }
}
