package org.agentplatform.api.file;

import java.net.URI;
import org.agentplatform.kernel.identity.OwnerId;
import reactor.core.publisher.Mono;

/**
 * Port: owner-scoped files in an object store reached through presigned URLs. A file is pending until
 * its bytes are uploaded, then confirmed with their size and sha256.
 *
 * @see SignedObjects for the built-in store's own upload and download endpoints
 */
public interface FileStore {

    /** Registers a pending file and answers where to upload it; {@code serviceUrl} is this service's base URL as the caller sees it. */
    Mono<UploadTicket> presignUpload(OwnerId owner, String contentType, long contentLength, String filename, URI serviceUrl);

    /** A download URL for the owner's confirmed file; empty when the owner has no such file. */
    Mono<DownloadTicket> presignDownload(OwnerId owner, String fileId, URI serviceUrl);

    /** The owner's confirmed file, confirming an upload the store already holds; empty when there is none. */
    Mono<StoredFile> confirmed(OwnerId owner, String fileId);

    /** The largest upload accepted. */
    long maxBytes();
}
