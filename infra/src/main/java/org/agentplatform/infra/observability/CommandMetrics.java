package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.Message;
import org.axonframework.monitoring.MessageMonitor;

/** How long each command takes to handle (aggregate load, decision, event append and commit), by command and outcome. */
final class CommandMetrics implements MessageMonitor<Message<?>> {

    private final MeterRegistry meters;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    CommandMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public MonitorCallback onMessageIngested(Message<?> message) {
        String command = simpleName(message instanceof CommandMessage<?> named ? named.getCommandName() : message.getPayloadType().getName());
        long started = System.nanoTime();
        return new MonitorCallback() {
            @Override
            public void reportSuccess() {
                timer(command, "success").record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }

            @Override
            public void reportFailure(Throwable cause) {
                timer(command, "failure").record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }

            @Override
            public void reportIgnored() {
            }
        };
    }

    private Timer timer(String command, String outcome) {
        return timers.computeIfAbsent(command + ' ' + outcome, key -> Timer.builder("agent.platform.commands")
                .description("Command handling time").tag("command", command).tag("outcome", outcome).register(meters));
    }

    /** {@code org.agentplatform.kernel.task.TaskCommand$CreateTask} -> {@code CreateTask}. */
    static String simpleName(String commandName) {
        return commandName.substring(Math.max(commandName.lastIndexOf('.'), commandName.lastIndexOf('$')) + 1);
    }
}
