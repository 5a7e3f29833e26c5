package org.agentplatform.kernel.identity;

import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A person who can log in with email and password; belongs to one owner. */
public record UserId(UUID value) {

    public UserId {
        Objects.requireNonNull(value, "value");
    }

    public static UserId random() {
        return new UserId(RandomIds.uuid());
    }

    public static UserId of(String value) {
        return new UserId(UUID.fromString(value));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
