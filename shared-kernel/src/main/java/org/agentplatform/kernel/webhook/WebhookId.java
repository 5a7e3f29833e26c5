package org.agentplatform.kernel.webhook;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.agentplatform.kernel.task.TaskId;

/** A webhook of a task. Derived from the task and the URL, so registering the same URL again is the same webhook. */
public record WebhookId(UUID value) {

    public WebhookId {
        Objects.requireNonNull(value, "value");
    }

    public static WebhookId of(String value) {
        return new WebhookId(UUID.fromString(value));
    }

    public static WebhookId of(TaskId task, String url) {
        return new WebhookId(UUID.nameUUIDFromBytes(("webhook\n" + task + "\n" + url).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
