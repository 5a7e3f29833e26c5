package org.agentplatform.kernel.conversation;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A conversation: a long-lived multi-turn session of one caller with one agent. */
public record ConversationId(UUID value) {

    public ConversationId {
        Objects.requireNonNull(value, "value");
    }

    public static ConversationId random() {
        return new ConversationId(RandomIds.uuid());
    }

    /** The same id for the same name: an idempotency key makes a repeated open collide instead of opening twice. */
    public static ConversationId derivedFrom(String name) {
        return new ConversationId(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
