package org.agentplatform.command;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * A pool under load as its threads may take the work handed to it: the newest first. Nothing runs until the test says
 * so, and then on the test's thread.
 */
public final class NewestFirstPool implements Executor {

    private final Deque<Runnable> waiting = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
        waiting.push(task);
    }

    /** Runs the newest piece waiting. */
    public void runNewest() {
        waiting.pop().run();
    }

    /** Runs what waits, newest first, and what that hands on, until nothing waits. */
    public void runAll() {
        while (!waiting.isEmpty()) {
            runNewest();
        }
    }
}
