package org.agentplatform.query;

import java.util.UUID;

/**
 * A resource the event store holds (its create was accepted) that its read model did not show within the reader's
 * wait: neither "not found" nor a fault. The API answers it 504 {@code service_timeout} with {@code Retry-After}.
 */
public final class ReadModelBehind extends RuntimeException {

    private final UUID resource;

    public ReadModelBehind(UUID resource) {
        super("Resource " + resource + " is stored and not yet shown by its read model", null, false, false);
        this.resource = resource;
    }

    public UUID resource() {
        return resource;
    }
}
