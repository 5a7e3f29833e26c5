package org.agentplatform.command.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.agentplatform.command.NewestFirstPool;
import org.agentplatform.command.turn.RecordingRuntime;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.conversation.ConversationRef;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.kernel.task.TaskMessage;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.junit.jupiter.api.Test;

/** A conversation's canceled turn is stopped after the runtime has it, however the process pool orders the work handed to it. */
class ConversationDispatcherTest {

    @Test
    void aTurnCanceledRightAfterItStartedIsStoppedAfterItIsHandedOver() {
        InstanceId instance = InstanceId.random();
        ConversationRef conversation = new ConversationRef(ConversationId.random(), OwnerId.random(), AgentId.random(), instance, "ctx");
        SimpleCommandBus bus = SimpleCommandBus.builder().build();
        bus.subscribe(CheckInstanceReadiness.class.getName(),
                command -> new Readiness(instance, InstanceStatus.RUNNING, 1, "local", InstanceKind.LINUX));
        RecordingRuntime runtime = new RecordingRuntime();
        NewestFirstPool pool = new NewestFirstPool();
        ConversationDispatcher dispatcher = new ConversationDispatcher(DefaultCommandGateway.builder().commandBus(bus).build(), runtime, pool);

        dispatcher.on(new TurnStarted(conversation, 3, UUID.randomUUID(), TaskMessage.user("hi", List.of())), 42L);
        dispatcher.on(new TurnCanceled(conversation, 3, "enough"));
        pool.runAll();

        UUID channel = conversation.conversationId().value();
        assertThat(runtime.asked()).containsExactly("start " + channel + " 3", "stop " + channel + " 3");
    }
}
