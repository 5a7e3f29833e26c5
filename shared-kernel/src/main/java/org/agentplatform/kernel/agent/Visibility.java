package org.agentplatform.kernel.agent;

import java.util.Arrays;
import java.util.Optional;

/** Who may see (and later invoke) an agent besides its owner. */
public enum Visibility {
    PRIVATE("private"),
    PUBLIC("public");

    private final String wireName;

    Visibility(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<Visibility> fromWireName(String wireName) {
        return Arrays.stream(values()).filter(visibility -> visibility.wireName.equals(wireName)).findFirst();
    }
}
