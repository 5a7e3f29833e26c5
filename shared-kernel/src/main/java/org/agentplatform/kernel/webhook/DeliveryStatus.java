package org.agentplatform.kernel.webhook;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A delivery's states as data (the contract's table): {@code pending -> succeeded} on 2xx, {@code pending ->
 * failed} otherwise with the next attempt scheduled, {@code failed -> pending} when it is due, {@code pending ->
 * dead_letter} when attempt 6 fails. {@code succeeded} is terminal; {@code dead_letter} until a redeliver. A pending
 * or failed delivery can be stopped (its webhook was deleted): it stays, or becomes, {@code failed}, with no next attempt.
 */
public enum DeliveryStatus {
    PENDING("pending"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    DEAD_LETTER("dead_letter");

    private static final Map<DeliveryStatus, Set<DeliveryStatus>> NEXT = Map.of(
            PENDING, EnumSet.of(SUCCEEDED, FAILED, DEAD_LETTER),
            FAILED, EnumSet.of(PENDING),
            SUCCEEDED, EnumSet.noneOf(DeliveryStatus.class),
            DEAD_LETTER, EnumSet.noneOf(DeliveryStatus.class));

    private final String wireName;

    DeliveryStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean canBecome(DeliveryStatus next) {
        return NEXT.get(this).contains(next);
    }

    /** No attempt follows: it succeeded, or its schedule is exhausted (a failed row may still be stopped, and stays failed). */
    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    /** A redeliver clones only a row that failed or was dead-lettered. */
    public boolean canBeRedelivered() {
        return this == FAILED || this == DEAD_LETTER;
    }

    public static Optional<DeliveryStatus> fromWireName(String wireName) {
        for (DeliveryStatus status : values()) {
            if (status.wireName.equals(wireName)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
