package org.agentplatform.api.web;

import java.util.UUID;
import java.util.function.Function;
import org.agentplatform.api.error.ApiException;

/** Path identifiers: at most 128 characters (contract), and a UUID where the resource's ids are UUIDs. */
public final class PathIds {

    public static final int MAX_LENGTH = 128;

    private PathIds() {
    }

    /** The id, or 400 {@code invalid_param} naming the path parameter. */
    public static <T> T parse(String param, String value, Function<UUID, T> id) {
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw ApiException.invalidParam(param, "'" + param + "' must be 1 to " + MAX_LENGTH + " characters");
        }
        try {
            return id.apply(UUID.fromString(value));
        } catch (IllegalArgumentException malformed) {
            throw ApiException.invalidParam(param, "'" + param + "' must be a UUID");
        }
    }
}
