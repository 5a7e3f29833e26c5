package org.agentplatform.kernel.terminal;

import java.util.Arrays;
import java.util.Optional;

/** Why a terminal ended; each is final. */
public enum TerminalEnd {

    /** Its shell exited (the exit status is recorded). */
    SHELL_EXITED("shell_exited"),
    /** Its owner closed it. */
    CLOSED("closed"),
    /** No connection was attached to it for the idle period. */
    IDLE("idle"),
    INSTANCE_STOPPED("instance_stopped"),
    INSTANCE_RESTARTED("instance_restarted"),
    INSTANCE_DESTROYED("instance_destroyed"),
    /** Its shell is gone without a word (the node that ran it restarted). */
    LOST("lost");

    private final String wireName;

    TerminalEnd(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<TerminalEnd> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(end -> end.wireName.equals(wireName)).findFirst();
    }
}
