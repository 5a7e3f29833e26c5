package org.agentplatform.infra.platform;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.agentplatform.command.ProcessCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@code work} every {@code interval} on its own thread (a background one: {@link BackgroundPriority}) while the
 * service runs; a run that fails is logged and the next one comes at its time. For sweeps that recover what the
 * event-driven path lost; the commands they send act as {@code system:<name>}.
 */
public final class PeriodicJob implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicJob.class);

    private final String name;
    private final Duration interval;
    private final Runnable work;
    private final BackgroundPriority priority;
    private ScheduledExecutorService timer;

    public PeriodicJob(String name, Duration interval, Runnable work, BackgroundPriority priority) {
        this.name = name;
        this.interval = interval;
        this.work = work;
        this.priority = priority;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> priority.thread(name, runnable));
        timer.scheduleWithFixedDelay(() -> {
            try {
                ProcessCommands.runAs(name, work);
            } catch (RuntimeException failure) {
                log.atWarn().addKeyValue("job", name).setCause(failure).log("periodic job failed; retrying at the next interval");
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        timer = null;
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
