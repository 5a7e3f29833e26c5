package org.agentplatform.command.terminal;

import java.util.List;
import java.util.concurrent.Executor;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceEvent;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalEnded;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalOpened;
import org.agentplatform.kernel.terminal.TerminalEvent;
import org.agentplatform.kernel.terminal.TerminalId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;

/**
 * Terminals end with their instance (stopped, restarted, destroyed), and an ended terminal's shell is ended where it
 * runs, whoever ended it (its owner, the idle deadline, the instance); a destroyed instance's terminal workspace is
 * discarded. Which terminals an instance has open is this processor's own record ({@link OpenTerminals}), and its events
 * are sequenced per instance ({@link #sequence}), so a terminal opened before its instance stopped is always seen open
 * when the stop is handled. Commands are sent off the processor's thread.
 */
@ProcessingGroup(TerminalLifecycle.GROUP)
public class TerminalLifecycle {

    public static final String GROUP = "terminal-lifecycle";

    private final TerminalHost host;
    private final OpenTerminals open;
    private final CommandGateway commands;
    private final Executor executor;

    public TerminalLifecycle(TerminalHost host, OpenTerminals open, CommandGateway commands, Executor executor) {
        this.host = host;
        this.open = open;
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
    void on(TerminalOpened event) {
        open.opened(event.terminalId(), event.instanceId());
    }

    @EventHandler
    void on(TerminalEnded event) {
        open.ended(event.terminalId());
        host.end(event.terminalId(), event.reason());
    }

    /**
     * The order this processor needs: per instance, for the instance's own events and its terminals' alike (every terminal
     * event names its instance); {@code null} for any other event (then the aggregate's order applies).
     */
    public static Object sequence(Object payload) {
        return switch (payload) {
            case TerminalEvent terminal -> terminal.instanceId();
            case InstanceEvent instance -> instance.instanceId();
            default -> null;
        };
    }

    private void endAllOn(InstanceId instance, TerminalEnd reason) {
        List<TerminalId> terminals = open.on(instance);
        if (!terminals.isEmpty()) {
            executor.execute(() -> terminals.forEach(terminal -> ProcessCommands.send(commands, new EndTerminal(terminal, null, reason, null))));
        }
    }
}
