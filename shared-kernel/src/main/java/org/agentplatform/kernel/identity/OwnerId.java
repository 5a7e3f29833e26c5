package org.agentplatform.kernel.identity;

import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** The tenant: every credential maps to exactly one owner, every resource belongs to one. */
public record OwnerId(UUID value) {

    public OwnerId {
        Objects.requireNonNull(value, "value");
    }

    public static OwnerId random() {
        return new OwnerId(RandomIds.uuid());
    }

    public static OwnerId of(String value) {
        return new OwnerId(UUID.fromString(value));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
