package org.agentplatform.kernel.operation;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A runtime operation; its event stream is the durable, resumable operation event stream. */
public record OperationId(UUID value) {

    public OperationId {
        Objects.requireNonNull(value, "value");
    }

    public static OperationId random() {
        return new OperationId(RandomIds.uuid());
    }

    public static OperationId of(String value) {
        return new OperationId(UUID.fromString(value));
    }

    /** The same id for the same name, always: lets a retried or replayed step create the same thing once. */
    public static OperationId derivedFrom(String name) {
        return new OperationId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
