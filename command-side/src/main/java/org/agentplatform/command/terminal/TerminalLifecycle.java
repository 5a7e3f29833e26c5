package org.agentplatform.command.terminal;

import java.util.concurrent.Executor;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalEnded;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;

/**
 * Terminals end with their instance (stopped, restarted, destroyed), and an ended terminal's shell is ended where it
 * runs, whoever ended it (its owner, the idle deadline, the instance); a destroyed instance's terminal workspace is
 * discarded. Commands are sent off the processor's thread.
 */
@ProcessingGroup(TerminalLifecycle.GROUP)
public class TerminalLifecycle {

    public static final String GROUP = "terminal-lifecycle";

    private final TerminalHost host;
    private final CommandGateway commands;
    private final Executor executor;

    public TerminalLifecycle(TerminalHost host, CommandGateway commands, Executor executor) {
        this.host = host;
        this.commands = commands;
        this.executor = ProcessCommands.carrying(executor);
    }

    @EventHandler
    void on(InstanceStopped event) {
        endAllOn(event.instanceId(), TerminalEnd.INSTANCE_STOPPED);
    }

    @EventHandler
    void on(InstanceRestartRequested event) {
        endAllOn(event.instanceId(), TerminalEnd.INSTANCE_RESTARTED);
    }

    @EventHandler
    void on(InstanceDestroyed event) {
        endAllOn(event.instanceId(), TerminalEnd.INSTANCE_DESTROYED);
        host.discard(event.instanceId());
    }

    @EventHandler
    void on(TerminalEnded event) {
        host.end(event.terminalId(), event.reason());
    }

    private void endAllOn(InstanceId instance, TerminalEnd reason) {
        var open = host.openOn(instance);
        if (!open.isEmpty()) {
            executor.execute(() -> open.forEach(terminal -> ProcessCommands.send(commands, new EndTerminal(terminal, null, reason, null))));
        }
    }
}
