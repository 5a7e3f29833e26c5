package org.agentplatform.kernel.terminal;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A terminal's states as data: {@code detached} (open, its idle period running) and {@code attached} (a connection
 * holds it; a later connection replaces it) alternate; {@code ended} is final, from either (its shell exited, its owner
 * closed it, its instance stopped, or it stayed detached through the idle period).
 */
public enum TerminalState {
    DETACHED,
    ATTACHED,
    ENDED;

    private static final Map<TerminalState, Set<TerminalState>> NEXT = Map.of(
            DETACHED, EnumSet.of(ATTACHED, ENDED),
            ATTACHED, EnumSet.of(ATTACHED, DETACHED, ENDED),
            ENDED, EnumSet.noneOf(TerminalState.class));

    public boolean canBecome(TerminalState next) {
        return NEXT.get(this).contains(next);
    }

    public boolean isLive() {
        return this != ENDED;
    }
}
