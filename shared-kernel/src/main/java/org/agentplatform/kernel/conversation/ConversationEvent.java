package org.agentplatform.kernel.conversation;

import java.util.List;
import java.util.UUID;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskStatus;

/**
 * Events of the {@code Conversation} aggregate. A turn's status uses the task statuses: {@code running} when
 * it starts; {@code completed}, {@code input_required}, {@code auth_required}, {@code failed}, {@code rejected}
 * or {@code canceled} when it ends.
 */
public sealed interface ConversationEvent {

    ConversationRef conversation();

    default ConversationId conversationId() {
        return conversation().conversationId();
    }

    record ConversationOpened(ConversationRef conversation, String title) implements ConversationEvent {
    }

    /**
     * The caller's message is in the conversation; {@code number} counts the messages from 1. It enters the log when
     * its turn starts ({@link TurnStarted}), so a turn's log rows are never interleaved with later messages.
     */
    record MessagePosted(ConversationRef conversation, UUID messageId, int number, TaskMessage message) implements ConversationEvent {
    }

    /** Turn {@code turn} goes to the agent with message {@code messageId}. */
    record TurnStarted(ConversationRef conversation, int turn, UUID messageId, TaskMessage message) implements ConversationEvent {
    }

    /** @param status how it ended (see {@link ConversationCommand.EndTurn}); never {@code running} or {@code canceled} */
    record TurnEnded(ConversationRef conversation, int turn, TaskStatus status, TaskMessage reply, TaskFailure failure)
            implements ConversationEvent {
    }

    record TurnCanceled(ConversationRef conversation, int turn, String reason) implements ConversationEvent {
    }

    /** @param unanswered the messages that still waited for their turn: they are not answered */
    record ConversationClosed(ConversationRef conversation, List<UUID> unanswered) implements ConversationEvent {

        public ConversationClosed {
            unanswered = unanswered == null ? List.of() : List.copyOf(unanswered);
        }
    }
}
