package org.agentplatform.kernel.instance;

import java.util.Arrays;
import java.util.Optional;

/** What an instance runs: a desktop ({@code computer} control) or an android device ({@code mobile} control). */
public enum InstanceKind {
    LINUX("linux", true),
    WINDOWS("windows", true),
    MAC("mac", true),
    ANDROID("android", false);

    private final String wireName;
    private final boolean desktop;

    InstanceKind(String wireName, boolean desktop) {
        this.wireName = wireName;
        this.desktop = desktop;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isDesktop() {
        return desktop;
    }

    public static Optional<InstanceKind> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(kind -> kind.wireName.equals(wireName)).findFirst();
    }
}
