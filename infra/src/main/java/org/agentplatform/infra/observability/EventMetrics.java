package org.agentplatform.infra.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.kernel.task.TaskEvent;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.kernel.webhook.DeliveryAttempt;
import org.agentplatform.kernel.webhook.DeliveryEvent;
import org.axonframework.messaging.Message;
import org.axonframework.monitoring.MessageMonitor;
import org.axonframework.monitoring.NoOpMessageMonitorCallback;

/**
 * Counts what the events this node commits say happened: tasks created and finished (by status), and webhook
 * attempts (by outcome, with their latency). It watches the event store's appends, so an event counts once,
 * when its transaction commits, and never again in a replay.
 */
final class EventMetrics implements MessageMonitor<Message<?>> {

    private final MeterRegistry meters;
    private final Counter created;
    private final Map<String, Counter> finished = new ConcurrentHashMap<>();
    private final Map<String, Timer> attempts = new ConcurrentHashMap<>();

    EventMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.created = Counter.builder("agent.platform.tasks.accepted").description("Tasks accepted (created)").register(meters);
        for (TaskStatus status : TaskStatus.values()) {
            if (status.isTerminal()) {
                finished(status.wireName());
            }
        }
        for (String outcome : new String[] {"succeeded", "failed", "dead_letter"}) {
            attempts(outcome);
        }
    }

    @Override
    public MonitorCallback onMessageIngested(Message<?> message) {
        Runnable count = switch (message.getPayload()) {
            case TaskEvent.TaskCreated ignored -> created::increment;
            case TaskEvent.TaskCompleted ignored -> finished(TaskStatus.COMPLETED.wireName())::increment;
            case TaskEvent.TaskFailed ignored -> finished(TaskStatus.FAILED.wireName())::increment;
            case TaskEvent.TaskRejected ignored -> finished(TaskStatus.REJECTED.wireName())::increment;
            case TaskEvent.TaskCanceled ignored -> finished(TaskStatus.CANCELED.wireName())::increment;
            case TaskEvent.TaskTimedOut ignored -> finished(TaskStatus.TIMEOUT.wireName())::increment;
            case DeliveryEvent.DeliverySucceeded delivery -> attempt("succeeded", delivery.attempt());
            case DeliveryEvent.DeliveryFailed delivery -> attempt("failed", delivery.attempt());
            case DeliveryEvent.DeliveryDeadLettered delivery -> attempt("dead_letter", delivery.attempt());
            default -> null;
        };
        return count == null ? NoOpMessageMonitorCallback.INSTANCE : new MonitorCallback() {
            @Override
            public void reportSuccess() {
                count.run();
            }

            @Override
            public void reportFailure(Throwable cause) {
                // rolled back: it did not happen
            }

            @Override
            public void reportIgnored() {
            }
        };
    }

    private Runnable attempt(String outcome, DeliveryAttempt attempt) {
        return () -> attempts(outcome).record(Duration.ofMillis(attempt.durationMs()));
    }

    private Counter finished(String status) {
        return finished.computeIfAbsent(status, name -> Counter.builder("agent.platform.tasks.finished")
                .description("Tasks that reached a terminal status").tag("status", name).register(meters));
    }

    private Timer attempts(String outcome) {
        return attempts.computeIfAbsent(outcome, name -> Timer.builder("agent.platform.webhook.attempts")
                .description("Webhook delivery attempts by outcome, and how long the receiver took")
                .tag("outcome", name).publishPercentileHistogram().register(meters));
    }
}
