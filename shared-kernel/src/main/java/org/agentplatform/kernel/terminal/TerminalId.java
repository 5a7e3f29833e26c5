package org.agentplatform.kernel.terminal;

import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A terminal: a shell on an instance that outlives the connections attached to it. */
public record TerminalId(UUID value) {

    public TerminalId {
        Objects.requireNonNull(value, "value");
    }

    public static TerminalId random() {
        return new TerminalId(RandomIds.uuid());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
