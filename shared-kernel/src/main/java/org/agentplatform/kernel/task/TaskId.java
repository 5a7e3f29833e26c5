package org.agentplatform.kernel.task;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** An agent task (asynchronous, invoked synchronously, or started by a cron entry). */
public record TaskId(UUID value) {

    public TaskId {
        Objects.requireNonNull(value, "value");
    }

    public static TaskId random() {
        return new TaskId(RandomIds.uuid());
    }

    public static TaskId of(String value) {
        return new TaskId(UUID.fromString(value));
    }

    /** The same id for the same name: an idempotency key makes a repeated create collide instead of creating twice. */
    public static TaskId derivedFrom(String name) {
        return new TaskId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
