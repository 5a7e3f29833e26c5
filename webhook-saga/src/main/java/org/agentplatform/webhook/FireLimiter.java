package org.agentplatform.webhook;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/** At most {@code permits} deliveries of one fire (one task status transition) are attempted at a time. */
final class FireLimiter {

    private final int permits;
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    FireLimiter(int permits) {
        this.permits = permits;
    }

    void run(String fire, Runnable work) throws InterruptedException {
        Gate gate = gates.compute(fire, (key, existing) -> {
            Gate current = existing == null ? new Gate(new Semaphore(permits)) : existing;
            current.users++;
            return current;
        });
        try {
            gate.semaphore.acquire();
            try {
                work.run();
            } finally {
                gate.semaphore.release();
            }
        } finally {
            gates.computeIfPresent(fire, (key, existing) -> --existing.users == 0 ? null : existing);
        }
    }

    /** A fire's permits and how many attempts hold or wait for them (the gate goes when none do). */
    private static final class Gate {

        private final Semaphore semaphore;
        private int users;

        Gate(Semaphore semaphore) {
            this.semaphore = semaphore;
        }
    }
}
