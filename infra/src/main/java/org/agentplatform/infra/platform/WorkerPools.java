package org.agentplatform.infra.platform;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread pools whose tasks cannot fail silently or take their thread with them: a task that throws is logged
 * with its pool's name, and the thread goes on with the next one. (A plain pool replaces a thread killed by an
 * exception, printing it to standard error outside the structured log; a scheduled pool swallows it.)
 */
public final class WorkerPools {

    private static final Logger log = LoggerFactory.getLogger(WorkerPools.class);

    private WorkerPools() {
    }

    public static ExecutorService fixed(String name, int threads) {
        return fixed(name, threads, Thread.ofPlatform().name(name + "-", 0).daemon().factory());
    }

    /**
     * As {@link #fixed(String, int)}, its threads made by {@code factory} (background ones: {@link BackgroundPriority}). The
     * threads start at once, on the calling thread's priority: a thread made later, by whichever thread first handed it
     * work, would take that thread's (Linux threads inherit their maker's nice value).
     */
    public static ExecutorService fixed(String name, int threads, ThreadFactory factory) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory) {
            @Override
            public void execute(Runnable task) {
                super.execute(guarded(name, task));
            }
        };
        pool.prestartAllCoreThreads();
        return pool;
    }

    public static ScheduledExecutorService timer(String name) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name).daemon().factory()) {
            @Override
            public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
                return super.schedule(guarded(name, task), delay, unit);
            }

            @Override
            public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
                return super.scheduleWithFixedDelay(guarded(name, task), initialDelay, delay, unit);
            }

            @Override
            public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
                return super.scheduleAtFixedRate(guarded(name, task), initialDelay, period, unit);
            }
        };
        timer.setRemoveOnCancelPolicy(true);
        timer.prestartAllCoreThreads();
        return timer;
    }

    static Runnable guarded(String pool, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException failure) {
                log.atError().addKeyValue("pool", pool).setCause(failure).log("a task failed; its worker goes on");
            }
        };
    }
}
