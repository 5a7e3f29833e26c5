package org.agentplatform.api.file;

import java.time.Instant;
import org.agentplatform.kernel.identity.OwnerId;

/** A confirmed file of an owner: its bytes are in the object store, with this size and digest. */
public record StoredFile(
        String fileId,
        OwnerId ownerId,
        String contentType,
        long sizeBytes,
        String sha256,
        String filename,
        Instant createdAt) {
}
