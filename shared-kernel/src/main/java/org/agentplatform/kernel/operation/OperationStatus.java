package org.agentplatform.kernel.operation;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A runtime operation's lifecycle as data. The happy path is {@code queued -> running ->
 * runtime_committed -> [projection_pending ->] succeeded}. Each status fixes the effect state and
 * whether it is terminal, so the two can never disagree with it.
 * <ul>
 *   <li>{@code expired}: never started before its deadline (the instance was not running);</li>
 *   <li>{@code cancelled}: cancelled before the runtime committed (the point of no return);</li>
 *   <li>{@code failed}: the runtime refused it, or could not reach it before dispatch;</li>
 *   <li>{@code outcome_unknown}: dispatched, then the runtime went silent past its answer deadline;</li>
 *   <li>{@code projection_blocked}: the runtime committed but the platform cannot reflect it.</li>
 * </ul>
 */
public enum OperationStatus {
    QUEUED("queued", EffectState.QUEUED, false),
    RUNNING("running", EffectState.RUNNING, false),
    RUNTIME_COMMITTED("runtime_committed", EffectState.COMMITTED, false),
    PROJECTION_PENDING("projection_pending", EffectState.COMMITTED, false),
    PROJECTION_BLOCKED("projection_blocked", EffectState.COMMITTED, true),
    SUCCEEDED("succeeded", EffectState.COMMITTED, true),
    FAILED("failed", EffectState.FAILED, true),
    CANCELLED("cancelled", EffectState.CANCELLED, true),
    EXPIRED("expired", EffectState.EXPIRED, true),
    OUTCOME_UNKNOWN("outcome_unknown", EffectState.OUTCOME_UNKNOWN, true);

    private static final Map<OperationStatus, Set<OperationStatus>> NEXT = Map.of(
            QUEUED, EnumSet.of(RUNNING, CANCELLED, EXPIRED, FAILED),
            RUNNING, EnumSet.of(RUNTIME_COMMITTED, FAILED, CANCELLED, OUTCOME_UNKNOWN),
            RUNTIME_COMMITTED, EnumSet.of(PROJECTION_PENDING, SUCCEEDED),
            PROJECTION_PENDING, EnumSet.of(SUCCEEDED, PROJECTION_BLOCKED),
            PROJECTION_BLOCKED, EnumSet.noneOf(OperationStatus.class),
            SUCCEEDED, EnumSet.noneOf(OperationStatus.class),
            FAILED, EnumSet.noneOf(OperationStatus.class),
            CANCELLED, EnumSet.noneOf(OperationStatus.class),
            EXPIRED, EnumSet.noneOf(OperationStatus.class),
            OUTCOME_UNKNOWN, EnumSet.noneOf(OperationStatus.class));

    private final String wireName;
    private final EffectState effectState;
    private final boolean terminal;

    OperationStatus(String wireName, EffectState effectState, boolean terminal) {
        this.wireName = wireName;
        this.effectState = effectState;
        this.terminal = terminal;
    }

    public String wireName() {
        return wireName;
    }

    public EffectState effectState() {
        return effectState;
    }

    public boolean isTerminal() {
        return terminal;
    }

    public boolean canBecome(OperationStatus next) {
        return NEXT.get(this).contains(next);
    }

    /** Before the runtime's commit a cancel can still win; after it, it cannot. */
    public boolean isCancellable() {
        return this == QUEUED || this == RUNNING;
    }

    public static OperationStatus fromWireName(String wireName) {
        for (OperationStatus status : values()) {
            if (status.wireName.equals(wireName)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Unknown operation status " + wireName);
    }
}
