package org.agentplatform.command.turn;

import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.agentplatform.command.instance.ReadinessCheck;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.commandhandling.gateway.CommandGateway;

/**
 * Hands a turn that started after its instance was last seen serving (a task continued, a conversation's next
 * message) to the runtime at the instance's current epoch, or says why it cannot: the instance is gone or not
 * serving.
 */
public final class RuntimeHandOff {

    private RuntimeHandOff() {
    }

    /**
     * @param turnAt  the turn at the runtime epoch the instance serves at now
     * @param offline called with the reason when the instance does not serve
     */
    public static void handOff(CommandGateway commands, AgentRuntime runtime, InstanceId instance, LongFunction<AgentTurn> turnAt,
            Consumer<String> offline) {
        ReadinessCheck check = ReadinessCheck.of(commands, instance);
        if (check.isGone()) {
            offline.accept("The agent's instance is gone");
        } else if (check.readiness().isServing()) {
            runtime.startTurn(turnAt.apply(check.readiness().runtimeEpoch()));
        } else {
            offline.accept("The agent's instance is " + check.readiness().status().wireName());
        }
    }
}
