package org.agentplatform.kernel.conversation;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A conversation's states as data: {@code idle} (open, no turn running) and {@code answering} (a turn running) take
 * turns as messages come and turns end; {@code closed} is final, and only an idle conversation closes (closing one that
 * answers cancels its turn first). Its wire status is {@code open} or {@code closed}.
 */
public enum ConversationState {
    IDLE,
    ANSWERING,
    CLOSED;

    private static final Map<ConversationState, Set<ConversationState>> NEXT = Map.of(
            IDLE, EnumSet.of(ANSWERING, CLOSED),
            ANSWERING, EnumSet.of(IDLE),
            CLOSED, EnumSet.noneOf(ConversationState.class));

    public boolean canBecome(ConversationState next) {
        return NEXT.get(this).contains(next);
    }

    public boolean isOpen() {
        return this != CLOSED;
    }

    /** The conversation's status on the wire. */
    public String wireStatus() {
        return isOpen() ? "open" : "closed";
    }
}
