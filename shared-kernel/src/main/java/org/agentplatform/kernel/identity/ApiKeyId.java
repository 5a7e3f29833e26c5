package org.agentplatform.kernel.identity;

import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.RandomIds;

/** A user API key (`oag_`); its id is public, its plaintext is shown once. */
public record ApiKeyId(UUID value) {

    public ApiKeyId {
        Objects.requireNonNull(value, "value");
    }

    public static ApiKeyId random() {
        return new ApiKeyId(RandomIds.uuid());
    }

    public static ApiKeyId of(String value) {
        return new ApiKeyId(UUID.fromString(value));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
