package org.agentplatform.command.conversation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.agentplatform.command.OrderedWork;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.command.turn.RuntimeHandOff;
import org.agentplatform.kernel.GlobalIndex;
import org.agentplatform.kernel.conversation.ConversationCommand.EndTurn;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.conversation.ConversationRef;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskStatus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MetaDataValue;

/**
 * Moves a conversation's turns to its agent's runtime: each started turn goes there at the epoch its instance
 * serves at now (an instance that does not serve fails the turn {@code agent_offline}, and the next waiting
 * message goes on); a canceled turn is stopped. Work happens off the processor's thread; the runtime recovers
 * turns a crash interrupted.
 */
@ProcessingGroup(ConversationDispatcher.GROUP)
public class ConversationDispatcher {

    public static final String GROUP = "conversation-dispatch";
    private static final String AGENT_OFFLINE = "agent_offline";

    private final CommandGateway commands;
    private final AgentRuntime runtime;
    /** A conversation's turns and their stops, in the order they came: a stop never overtakes the turn it stops. */
    private final OrderedWork<ConversationId> ordered;

    public ConversationDispatcher(CommandGateway commands, AgentRuntime runtime, Executor executor) {
        this.commands = commands;
        this.runtime = runtime;
        this.ordered = new OrderedWork<>(executor);
    }

    @EventHandler
    void on(TurnStarted event, @MetaDataValue(GlobalIndex.KEY) Long globalIndex) {
        ordered.run(event.conversation().conversationId(), () -> handOff(event.conversation(), event.turn(), globalIndex, event.message()));
    }

    /**
     * Hands turn {@code turn} (started by the event at {@code globalIndex}) to the runtime at the epoch its instance serves
     * at now, or fails it {@code agent_offline}: a turn just started, and one whose hand-off a crash lost.
     */
    public void handOff(ConversationRef conversation, int turn, long globalIndex, TaskMessage message) {
        RuntimeHandOff.handOff(commands, runtime, conversation.instanceId(),
                epoch -> AgentTurn.of(conversation, turn, epoch, globalIndex, message),
                reason -> ProcessCommands.send(commands, new EndTurn(conversation.conversationId(), turn, TaskStatus.FAILED, null,
                        new TaskFailure(AGENT_OFFLINE, reason))));
    }

    /**
     * Runs {@code work} in the conversation's lane, after the turns and stops handed on before it and before those handed on
     * after it (the recovery of a lost hand-off: its check that the turn still runs and its hand-off in one piece).
     */
    public <T> CompletableFuture<T> inOrder(ConversationId conversation, Supplier<T> work) {
        return ordered.call(conversation, work);
    }

    @EventHandler
    void on(TurnCanceled event) {
        ordered.run(event.conversationId(), () -> runtime.stopTurn(event.conversationId().value(), event.turn()));
    }
}
