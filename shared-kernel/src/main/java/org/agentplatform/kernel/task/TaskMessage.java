package org.agentplatform.kernel.task;

import java.util.List;
import java.util.Objects;

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
}
