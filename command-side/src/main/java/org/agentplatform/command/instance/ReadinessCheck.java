package org.agentplatform.command.instance;

import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;

/**
 * A process asking an instance whether it serves: its {@code readiness}, or, when it never will again
 * (destroyed, failed, unknown), why ({@code goneReason}, with {@code readiness} null).
 */
public record ReadinessCheck(Readiness readiness, String goneReason) {

    public static ReadinessCheck of(CommandGateway commands, InstanceId instance) {
        try {
            return new ReadinessCheck(commands.sendAndWait(new CheckInstanceReadiness(instance, null)), null);
        } catch (RuntimeException failure) {
            Throwable cause = ProcessCommands.unwrap(failure);
            if (cause instanceof CommandRefused || cause instanceof AggregateNotFoundException) {
                return new ReadinessCheck(null, cause.getMessage());
            }
            throw failure;
        }
    }

    public boolean isGone() {
        return readiness == null;
    }
}
