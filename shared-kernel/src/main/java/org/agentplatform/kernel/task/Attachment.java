package org.agentplatform.kernel.task;

/** A confirmed file of the caller attached to a message: a reference with its recorded digest, never the bytes. */
public record Attachment(String fileId, String name, String contentType, long sizeBytes, String sha256) {
}
