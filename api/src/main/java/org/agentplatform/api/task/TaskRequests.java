package org.agentplatform.api.task;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.validation.Validate;
import org.agentplatform.api.webhook.WebhookRegistrar;

/**
 * The bodies of the task endpoints and their checks. Every field is optional but {@code message};
 * {@code deadline_ms} is at most 7 days; {@code timeout_ms} is clamped to [100, 115000].
 */
public final class TaskRequests {

    static final int MAX_MESSAGE = 1024 * 1024;
    static final int MAX_ATTACHMENTS = 32;
    static final int MAX_WEBHOOKS = 10;
    static final long MAX_DEADLINE_MS = Duration.ofDays(7).toMillis();
    static final long MIN_TIMEOUT_MS = 100;
    static final long MAX_TIMEOUT_MS = 115_000;

    private TaskRequests() {
    }

    /** {@code POST /agents/{agentId}/tasks}. */
    record CreateRequest(
            String message,
            List<AttachmentRequest> attachments,
            @JsonProperty("context_id") String contextId,
            @JsonProperty("deadline_ms") Long deadlineMs,
            @JsonProperty("idempotency_key") String idempotencyKey,
            List<WebhookRequest> webhooks) {

        NewTask validated() {
            if (deadlineMs != null && (deadlineMs < 1 || deadlineMs > MAX_DEADLINE_MS)) {
                throw ApiException.invalidParam("deadline_ms", "'deadline_ms' must be between 1 and " + MAX_DEADLINE_MS + " (7 days)");
            }
            return new NewTask(checkedMessage(message), checkedAttachments(attachments), checkedContextId(contextId),
                    deadlineMs == null ? null : Duration.ofMillis(deadlineMs), checkedKey(idempotencyKey), checkedWebhooks(webhooks));
        }
    }

    /** {@code POST /agents/{agentId}/invoke}. */
    record InvokeRequest(
            String message,
            List<AttachmentRequest> attachments,
            @JsonProperty("context_id") String contextId,
            @JsonProperty("idempotency_key") String idempotencyKey,
            @JsonProperty("timeout_ms") Long timeoutMs) {

        NewTask validated() {
            return new NewTask(checkedMessage(message), checkedAttachments(attachments), checkedContextId(contextId), null,
                    checkedKey(idempotencyKey), List.of());
        }

        /** The wait, clamped server-side (a legacy 120000 becomes 115000). */
        Duration timeout() {
            long millis = timeoutMs == null ? MAX_TIMEOUT_MS : Math.max(MIN_TIMEOUT_MS, Math.min(MAX_TIMEOUT_MS, timeoutMs));
            return Duration.ofMillis(millis);
        }
    }

    /** {@code POST .../tasks/{taskId}/continue}. */
    record ContinueRequest(String message, List<AttachmentRequest> attachments) {

        NewMessage validated() {
            return new NewMessage(checkedMessage(message), checkedAttachments(attachments));
        }
    }

    /** {@code POST .../tasks/{taskId}/cancel} (the body is optional). */
    record CancelRequest(String reason) {

        String validatedReason() {
            return reason == null ? null : Validate.text("reason", reason, 1, 1000);
        }
    }

    public record AttachmentRequest(@JsonProperty("file_id") String fileId, String name) {
    }

    /** A webhook registered with the task, before its first transition (so it gets {@code queued} too). */
    record WebhookRequest(String url, String secret, String token) {
    }

    /** A checked create: {@code deadline} null for none. */
    record NewTask(String message, List<AttachmentRequest> attachments, String contextId, Duration deadline, String idempotencyKey,
            List<WebhookRegistrar.Checked> webhooks) {
    }

    record NewMessage(String message, List<AttachmentRequest> attachments) {
    }

    /** The message of a task or conversation: 1 character to 1 MiB. */
    public static String checkedMessage(String message) {
        return Validate.text("message", message, 1, MAX_MESSAGE);
    }

    public static List<AttachmentRequest> checkedAttachments(List<AttachmentRequest> attachments) {
        if (attachments == null) {
            return List.of();
        }
        if (attachments.size() > MAX_ATTACHMENTS) {
            throw ApiException.invalidParam("attachments", "At most " + MAX_ATTACHMENTS + " attachments per message");
        }
        for (int index = 0; index < attachments.size(); index++) {
            String at = "attachments[" + index + "]";
            AttachmentRequest attachment = attachments.get(index);
            if (attachment == null) {
                throw ApiException.invalidBody("'" + at + "' must be an object", at);
            }
            Validate.text(at + ".file_id", attachment.fileId(), 1, 128);
            if (attachment.name() != null) {
                Validate.text(at + ".name", attachment.name(), 1, 255);
            }
        }
        return List.copyOf(attachments);
    }

    private static List<WebhookRegistrar.Checked> checkedWebhooks(List<WebhookRequest> webhooks) {
        if (webhooks == null) {
            return List.of();
        }
        if (webhooks.size() > MAX_WEBHOOKS) {
            throw ApiException.invalidParam("webhooks", "At most " + MAX_WEBHOOKS + " webhooks with a new task; register more afterwards");
        }
        List<WebhookRegistrar.Checked> checked = new ArrayList<>();
        for (int index = 0; index < webhooks.size(); index++) {
            WebhookRequest webhook = webhooks.get(index);
            String at = "webhooks[" + index + "]";
            if (webhook == null) {
                throw ApiException.invalidBody("'" + at + "' must be an object", at);
            }
            checked.add(WebhookRegistrar.check(at + ".", webhook.url(), webhook.secret(), webhook.token()));
        }
        return checked;
    }

    public static String checkedContextId(String contextId) {
        return contextId == null ? null : Validate.text("context_id", contextId, 1, 128);
    }

    public static String checkedKey(String key) {
        return key == null ? null : Validate.text("idempotency_key", key, 1, 128);
    }
}
