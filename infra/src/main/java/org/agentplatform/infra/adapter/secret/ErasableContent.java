package org.agentplatform.infra.adapter.secret;

import java.io.IOException;
import org.agentplatform.kernel.identity.OwnerId;

/**
 * An owner's content kept apart from its sealed texts (its uploaded files' bytes): deleted when the owner's content is
 * erased ({@link OwnerContentEraser}), since destroying its data keys does not reach it.
 */
public interface ErasableContent {

    /** Deletes all of it for the owner; answers how many items there were. */
    int erase(OwnerId owner) throws IOException;
}
