package org.agentplatform.kernel.task;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/** One message of a task's conversation: the caller's ({@code user}) or the agent's ({@code agent}). */
public record TaskMessage(String role, String text, List<Attachment> attachments) {

    public static final String USER = "user";
    public static final String AGENT = "agent";

    public TaskMessage {
        Objects.requireNonNull(role, "role");
        text = text == null ? "" : text;
        attachments = attachments == null ? List.of() : List.copyOf(attachments);
    }

    public static TaskMessage user(String text, List<Attachment> attachments) {
        return new TaskMessage(USER, text, attachments);
    }

    public static TaskMessage agent(String text) {
        return new TaskMessage(AGENT, text, List.of());
    }

    /**
     * The message with {@code change} applied to its personal parts (its text, its attachments' file names): how it is
     * sealed for the store and opened for its owner ({@link org.agentplatform.kernel.privacy.PersonalContent}).
     */
    public TaskMessage personal(UnaryOperator<String> change) {
        return new TaskMessage(role, change.apply(text), attachments.stream()
                .map(attachment -> new Attachment(attachment.fileId(), change.apply(attachment.name()), attachment.contentType(),
                        attachment.sizeBytes(), attachment.sha256()))
                .toList());
    }
}
