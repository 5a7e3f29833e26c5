package org.agentplatform.api.file;

import java.time.Instant;

/** A short-lived URL that downloads a confirmed file. */
public record DownloadTicket(StoredFile file, String url, Instant expiresAt) {
}
