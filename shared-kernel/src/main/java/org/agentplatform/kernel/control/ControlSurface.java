package org.agentplatform.kernel.control;

import java.util.Arrays;
import java.util.Optional;
import org.agentplatform.kernel.instance.InstanceKind;

/** How an instance's screen is driven: {@code computer} (linux, windows, mac) or {@code mobile} (android). */
public enum ControlSurface {
    COMPUTER("computer"),
    MOBILE("mobile");

    private final String wireName;

    ControlSurface(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether an instance of {@code kind} is driven through this surface. */
    public boolean drives(InstanceKind kind) {
        return this == COMPUTER ? kind.isDesktop() : !kind.isDesktop();
    }

    public static Optional<ControlSurface> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(surface -> surface.wireName.equals(wireName)).findFirst();
    }
}
