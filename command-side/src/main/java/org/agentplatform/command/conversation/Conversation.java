package org.agentplatform.command.conversation;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.agentplatform.kernel.conversation.ConversationCommand.CancelTurn;
import org.agentplatform.kernel.conversation.ConversationCommand.CloseConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.EndTurn;
import org.agentplatform.kernel.conversation.ConversationCommand.OpenConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.PostMessage;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationClosed;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationOpened;
import org.agentplatform.kernel.conversation.ConversationEvent.MessagePosted;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnEnded;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.conversation.ConversationEvent;
import org.agentplatform.kernel.conversation.ConversationRef;
import org.agentplatform.kernel.conversation.ConversationState;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskStatus;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * A conversation (see {@link ConversationState}): open until its caller closes it. Each message of the caller is one turn of the agent; the
 * turns run one at a time in the order the messages came (a message sent while the agent still answers waits
 * for the turns before it). Turns are numbered: the runtime's answer names its turn, so an answer to a turn
 * that was canceled (by the caller, or by closing) is refused.
 */
class Conversation {

    /** How a turn can end from the agent's side (a cancel is the caller's). */
    private static final Set<TaskStatus> ENDINGS = EnumSet.of(TaskStatus.COMPLETED, TaskStatus.INPUT_REQUIRED, TaskStatus.AUTH_REQUIRED,
            TaskStatus.FAILED, TaskStatus.REJECTED);

    private ConversationRef ref;
    private ConversationState state;
    private int turn;
    private int messages;
    private final Set<UUID> messageIds = new HashSet<>();
    private final Deque<MessagePosted> waiting = new ArrayDeque<>();

    protected Conversation() {
        // for event sourcing
    }

    @AggregateIdentifier
    String aggregateIdentifier() {
        return ref == null ? null : ref.conversationId().toString();
    }

    @CommandHandler
    Conversation(OpenConversation command) {
        apply(new ConversationOpened(new ConversationRef(command.conversationId(), command.ownerId(), command.agentId(),
                command.instanceId(), command.contextId()), command.title()));
    }

    @CommandHandler
    Long handle(PostMessage command) {
        requireOwner(command.requestedBy());
        requireOpen("it takes no more messages");
        if (messageIds.contains(command.messageId())) {
            throw CommandRefused.conflict(PostMessage.DUPLICATE + ": message " + command.messageId() + " was sent with this key already");
        }
        if (waiting.size() >= command.maxWaiting()) {
            throw CommandRefused.rateLimited("Conversation " + ref.conversationId() + " has " + waiting.size()
                    + " messages waiting behind its running turn, the most it takes; send again once a turn has ended");
        }
        apply(new MessagePosted(ref, command.messageId(), messages + 1, command.message()));
        startNextTurn();
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    void handle(EndTurn command) {
        if (!ENDINGS.contains(command.status())) {
            throw CommandRefused.conflict("A turn cannot end as " + command.status().wireName());
        }
        boolean answering = state.canBecome(ConversationState.IDLE);
        if (!answering || command.turn() != turn) {
            throw CommandRefused.conflict("Cannot end turn " + command.turn() + " of conversation " + ref.conversationId()
                    + (answering ? "; it is at turn " + turn : "; no turn is running"));
        }
        apply(new TurnEnded(ref, turn, command.status(), command.reply(), command.failure()));
        startNextTurn();
    }

    @CommandHandler
    Long handle(CancelTurn command) {
        requireOwner(command.requestedBy());
        requireOpen("it has no turn to cancel");
        if (!state.canBecome(ConversationState.IDLE)) {
            throw CommandRefused.conflict("Conversation " + ref.conversationId() + " has no running turn to cancel");
        }
        apply(new TurnCanceled(ref, turn, command.reason()));
        startNextTurn();
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    Long handle(CloseConversation command) {
        requireOwner(command.requestedBy());
        if (state.isOpen()) {
            if (state.canBecome(ConversationState.IDLE)) {
                apply(new TurnCanceled(ref, turn, "The conversation was closed"));
            }
            apply(new ConversationClosed(ref, waiting.stream().map(MessagePosted::messageId).toList()));
        }
        return AggregateLifecycle.getVersion();
    }

    /** The oldest waiting message becomes the next turn, unless a turn is running. */
    private void startNextTurn() {
        if (state.canBecome(ConversationState.ANSWERING) && !waiting.isEmpty()) {
            MessagePosted next = waiting.peekFirst();
            apply(new TurnStarted(ref, turn + 1, next.messageId(), next.message()));
        }
    }

    private void requireOwner(OwnerId requestedBy) {
        if (!ref.ownerId().equals(requestedBy)) {
            throw CommandRefused.agentNotFound("No conversation " + ref.conversationId());
        }
    }

    private void requireOpen(String consequence) {
        if (!state.isOpen()) {
            throw CommandRefused.conflict("Conversation " + ref.conversationId() + " is closed; " + consequence);
        }
    }

    @EventSourcingHandler
    void on(ConversationEvent event) {
        switch (event) {
            case ConversationOpened opened -> {
                ref = opened.conversation();
                state = ConversationState.IDLE;
            }
            case MessagePosted posted -> {
                messageIds.add(posted.messageId());
                messages = posted.number();
                waiting.addLast(posted);
            }
            case TurnStarted started -> {
                turn = started.turn();
                state = ConversationState.ANSWERING;
                waiting.removeIf(message -> message.messageId().equals(started.messageId()));
            }
            case TurnEnded ended -> state = ConversationState.IDLE;
            case TurnCanceled canceled -> state = ConversationState.IDLE;
            case ConversationClosed closing -> {
                state = ConversationState.CLOSED;
                waiting.clear();
            }
        }
    }
}
