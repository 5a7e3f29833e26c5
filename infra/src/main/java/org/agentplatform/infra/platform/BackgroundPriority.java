package org.agentplatform.infra.platform;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agentplatform.kernel.FrameworkReplacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling priority of the service's background threads: the event processors, the event store's reader, the
 * local runtime's turns and hand-offs, the sweepers. They run at a nice value {@code niceness} above the threads that
 * answer requests (Linux, per thread), so that when the cores are saturated the scheduler runs a request's threads
 * first and the background takes what is left: a burst of requests is accepted at full speed and its work drains after
 * it. Measured on the 32-connection create burst (docs/performance.md): without it every request waited behind the
 * background's threads at each of its thread hops.
 * <p>
 * Between the two, the command threads (which send a request's command and wait for its commit) run {@value
 * #COMMAND_NICENESS} nice values below the event loops: an event loop serves many connections and each request needs it
 * twice (its reading, its answer), so a loop waiting for a core holds up all of them (measured: more creates and a lower
 * p99 in a saturated burst, docs/performance.md).
 * <p>
 * A thread lowers its own priority as it starts (raising a nice value needs no privilege; lowering it back would). Off
 * with a niceness of 0, and where it cannot be done (not Linux, no C library through JNA): then every thread keeps the
 * priority it was started with, as without this.
 */
@FrameworkReplacement("Axon, Reactor, the JDK: the thread factories of the background threads (their scheduling priority)")
public final class BackgroundPriority {

    private static final Logger log = LoggerFactory.getLogger(BackgroundPriority.class);
    private static final int PRIO_PROCESS = 0;
    /** How many nice values the command threads run below the request threads (never below the background). */
    static final int COMMAND_NICENESS = 3;

    /** The calls of the C library it makes. */
    private interface LibC extends Library {

        /** The calling thread's kernel id (glibc 2.30+). */
        int gettid();

        int getpriority(int which, int who);

        int setpriority(int which, int who, int priority);
    }

    private final LibC libc;
    /** The nice value background threads take: the service's own plus {@code niceness}, at most 19. */
    private final int background;
    /** The nice value command threads take: between the service's own and the background's. */
    private final int commands;
    private final AtomicBoolean failureLogged = new AtomicBoolean();

    /** @param niceness how many nice values lower than the service's own (0-19; 0: not lower) */
    public BackgroundPriority(int niceness) {
        if (niceness < 0 || niceness > 19) {
            throw new IllegalArgumentException("agent-platform.background-niceness must be 0 to 19, not " + niceness);
        }
        LibC loaded = niceness == 0 ? null : load();
        int normal = loaded == null ? 0 : normalNice(loaded);
        this.libc = normal == Integer.MIN_VALUE ? null : loaded;
        this.background = Math.min(19, normal + niceness);
        this.commands = Math.min(background, normal + COMMAND_NICENESS);
        if (libc != null) {
            log.atInfo().addKeyValue("nice", background).addKeyValue("commands_nice", commands).addKeyValue("requests_nice", normal)
                    .log("background threads run at a lower priority than request threads");
        }
    }

    /** The nice value of the thread that starts the service (its request threads have it too), or MIN_VALUE if unknown. */
    private static int normalNice(LibC libc) {
        try {
            Native.setLastError(0);
            int nice = libc.getpriority(PRIO_PROCESS, libc.gettid());
            if (nice == -1 && Native.getLastError() != 0) {
                log.atWarn().addKeyValue("errno", Native.getLastError()).log("background threads keep the normal priority");
                return Integer.MIN_VALUE;
            }
            return nice;
        } catch (RuntimeException | LinkageError failure) {
            log.atWarn().setCause(failure).log("background threads keep the normal priority");
            return Integer.MIN_VALUE;
        }
    }

    /** Threads that take the background's priority as they start, named {@code name-0}, {@code name-1}, ... */
    public ThreadFactory threads(String name) {
        return lowering(named(name), background);
    }

    /** A single background thread named {@code name} that runs {@code work}, not started. */
    public Thread thread(String name, Runnable work) {
        return Thread.ofPlatform().name(name).daemon().unstarted(() -> {
            lowerCurrentThread();
            work.run();
        });
    }

    /** The threads of {@code factory}, each taking the background's priority as it starts. */
    public ThreadFactory lowering(ThreadFactory factory) {
        return lowering(factory, background);
    }

    /** Command threads named {@code name-0}, {@code name-1}, ...: each takes the command threads' priority as it starts. */
    public ThreadFactory commandThreads(String name) {
        return lowering(named(name), commands);
    }

    private ThreadFactory lowering(ThreadFactory factory, int nice) {
        return work -> factory.newThread(() -> {
            lowerCurrentThread(nice);
            work.run();
        });
    }

    private static ThreadFactory named(String name) {
        return Thread.ofPlatform().name(name + "-", 0).daemon().factory();
    }

    /** Gives the calling thread the background's priority. */
    public void lowerCurrentThread() {
        lowerCurrentThread(background);
    }

    private void lowerCurrentThread(int nice) {
        if (libc == null) {
            return;
        }
        try {
            if (libc.setpriority(PRIO_PROCESS, libc.gettid(), nice) != 0 && failureLogged.compareAndSet(false, true)) {
                log.atWarn().addKeyValue("errno", Native.getLastError()).log("a thread keeps the normal priority");
            }
        } catch (RuntimeException | LinkageError failure) {
            if (failureLogged.compareAndSet(false, true)) {
                log.atWarn().setCause(failure).log("a thread keeps the normal priority");
            }
        }
    }

    private static LibC load() {
        if (!Platform.isLinux()) {
            log.atInfo().log("background threads keep the normal priority: per-thread nice values are Linux's");
            return null;
        }
        try {
            return Native.load("c", LibC.class);
        } catch (RuntimeException | LinkageError failure) {
            log.atWarn().setCause(failure).log("background threads keep the normal priority: the C library could not be loaded");
            return null;
        }
    }
}
