package org.agentplatform.api.file;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Port: the built-in object store's endpoints, reached with the URLs {@link FileStore} presigns. Each
 * refuses an unknown file (404 {@code not_found}), a tampered or expired URL (403 {@code forbidden}); an
 * upload also a second upload (409 {@code conflict}) and bytes beyond the signed length (413).
 */
public interface SignedObjects {

    /** Stores the upload, recording its size and sha256; answers the confirmed file. */
    Mono<StoredFile> receive(String fileId, String expires, String signature, MediaType contentType, long contentLength,
            Flux<DataBuffer> body);

    /** The file and its bytes. */
    Mono<Download> serve(String fileId, String expires, String signature);

    record Download(StoredFile file, Flux<DataBuffer> body) {
    }
}
