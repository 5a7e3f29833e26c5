package org.agentplatform.kernel.conversation;

import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskStatus;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Conversation} aggregate. The caller's commands name {@code requestedBy} (another
 * owner's conversation is "not found"); the runtime's answer names the {@code turn} it answers, so an answer
 * to a turn that was canceled meanwhile is refused.
 */
public sealed interface ConversationCommand {

    ConversationId conversationId();

    record OpenConversation(
            @TargetAggregateIdentifier ConversationId conversationId,
            OwnerId ownerId,
            AgentId agentId,
            InstanceId instanceId,
            String contextId,
            String title) implements ConversationCommand {
    }

    /**
     * The caller's message: it starts the next turn at once, or waits behind the turns before it.
     * {@code messageId} is derived from the caller's idempotency key when one was given, so a repeat is refused. When
     * {@code maxWaiting} messages wait already, it is refused as {@code rate_limited}. Answers the conversation's version
     * after the change.
     */
    record PostMessage(@TargetAggregateIdentifier ConversationId conversationId, OwnerId requestedBy, UUID messageId,
            TaskMessage message, int maxWaiting) implements ConversationCommand {

        /** How the refusal of a repeated message id begins (the API answers it with the first message's id). */
        public static final String DUPLICATE = "Duplicate idempotency_key";

        /** A message with no bound on those waiting before it. */
        public PostMessage(ConversationId conversationId, OwnerId requestedBy, UUID messageId, TaskMessage message) {
            this(conversationId, requestedBy, messageId, message, Integer.MAX_VALUE);
        }
    }

    /**
     * How the agent ended {@code turn}: {@code completed}, {@code input_required} or {@code auth_required} with its
     * reply; {@code failed} with the failure (and the agent's text when it reported the failure itself);
     * {@code rejected} with its reason as the reply.
     */
    record EndTurn(@TargetAggregateIdentifier ConversationId conversationId, int turn, TaskStatus status, TaskMessage reply,
            TaskFailure failure) implements ConversationCommand {
    }

    /** Cancels the running turn; messages waiting behind it go on. Answers the conversation's version after the change. */
    record CancelTurn(@TargetAggregateIdentifier ConversationId conversationId, OwnerId requestedBy, String reason)
            implements ConversationCommand {
    }

    /** Closes the conversation (a running turn is canceled, waiting messages stay unanswered); closing it again changes nothing. */
    record CloseConversation(@TargetAggregateIdentifier ConversationId conversationId, OwnerId requestedBy)
            implements ConversationCommand {
    }
}
