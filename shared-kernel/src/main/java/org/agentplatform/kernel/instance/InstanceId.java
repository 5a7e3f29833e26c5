package org.agentplatform.kernel.instance;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A deployed sandbox or device; every runtime method runs against one. */
public record InstanceId(UUID value) {

    public InstanceId {
        Objects.requireNonNull(value, "value");
    }

    public static InstanceId random() {
        return new InstanceId(RandomIds.uuid());
    }

    public static InstanceId of(String value) {
        return new InstanceId(UUID.fromString(value));
    }

    /** The same id for the same name, always: lets a retried or replayed step create the same thing once. */
    public static InstanceId derivedFrom(String name) {
        return new InstanceId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
