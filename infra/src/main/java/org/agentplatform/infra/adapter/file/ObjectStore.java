package org.agentplatform.infra.adapter.file;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Where files' bytes live, reached by callers through presigned URLs. Blocking: call it off the event loop. */
interface ObjectStore {

    /** {@code local} or {@code s3}: recorded with each file. */
    String name();

    /** A URL that accepts exactly {@code length} bytes of {@code contentType} until {@code expires}, and the headers to send. */
    Presigned presignPut(String key, String contentType, long length, Instant expires, URI serviceUrl);

    /** A URL that downloads the object until {@code expires}. */
    String presignGet(String key, String contentType, String filename, Instant expires, URI serviceUrl);

    /** The object's size and sha256, reading it once; empty when there is no such object. */
    Optional<ObjectDigest> digest(String key);

    InputStream open(String key) throws IOException;

    /** Deletes the object; nothing happens when there is none. */
    void delete(String key) throws IOException;

    record Presigned(String url, Map<String, String> headers) {
    }

    record ObjectDigest(long sizeBytes, String sha256) {
    }
}
