package org.agentplatform.api.conversation;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.agentplatform.api.task.TaskRequests.AttachmentRequest;
import org.agentplatform.api.task.TaskRequests;
import org.agentplatform.api.validation.Validate;

/** The bodies of the conversation endpoints and their checks (the message rules are the tasks'). */
final class ConversationRequests {

    static final int MAX_TITLE = 200;

    private ConversationRequests() {
    }

    /** {@code POST /agents/{agentId}/conversations}; every field is optional. */
    record OpenRequest(String title, @JsonProperty("context_id") String contextId, @JsonProperty("idempotency_key") String idempotencyKey) {

        OpenRequest validated() {
            return new OpenRequest(title == null ? null : Validate.text("title", title, 1, MAX_TITLE),
                    TaskRequests.checkedContextId(contextId), TaskRequests.checkedKey(idempotencyKey));
        }
    }

    /** {@code POST .../conversations/{convId}/messages}. */
    record MessageRequest(String message, List<AttachmentRequest> attachments, @JsonProperty("idempotency_key") String idempotencyKey) {

        MessageRequest validated() {
            return new MessageRequest(TaskRequests.checkedMessage(message), TaskRequests.checkedAttachments(attachments),
                    TaskRequests.checkedKey(idempotencyKey));
        }
    }

    /** {@code POST .../conversations/{convId}/cancel} (the body is optional). */
    record CancelRequest(String reason) {

        String validatedReason() {
            return reason == null ? null : Validate.text("reason", reason, 1, 1000);
        }
    }
}
