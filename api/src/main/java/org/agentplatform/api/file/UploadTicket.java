package org.agentplatform.api.file;

import java.time.Instant;
import java.util.Map;

/** Where and how to upload a file's bytes: {@code method} to {@code url} with {@code headers}, before {@code expiresAt}. */
public record UploadTicket(String fileId, String url, String method, Map<String, String> headers, Instant expiresAt) {
}
