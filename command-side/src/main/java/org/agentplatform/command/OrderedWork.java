package org.agentplatform.command;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work a process hands to a pool, run in order per key (an operation, a task, a conversation): a piece starts once the
 * key's piece handed on before it has ended, failed or not, so a stop or a cancel never overtakes the start it undoes
 * (handed to the pool side by side, a busy pool may run the later piece first). Each piece sends its commands in the
 * context of the handler that handed it on ({@link ProcessCommands#carried}); one that fails is logged. A key holds
 * nothing once its last piece has ended.
 */
public final class OrderedWork<K> {

    private static final Logger log = LoggerFactory.getLogger(OrderedWork.class);

    private final Executor pool;
    /** Per key, the end of its last piece handed on (completed, never failed, when the piece has ended either way). */
    private final Map<K, CompletableFuture<Void>> last = new ConcurrentHashMap<>();

    public OrderedWork(Executor pool) {
        this.pool = pool;
    }

    /** Runs {@code work} on the pool after the pieces of {@code key} handed on before it. */
    public void run(K key, Runnable work) {
        Runnable carried = ProcessCommands.carried(work);
        CompletableFuture<Void> ended = new CompletableFuture<>();
        CompletableFuture<Void> before = last.put(key, ended);
        CompletableFuture<Void> after = before == null ? CompletableFuture.completedFuture(null) : before;
        after.thenRunAsync(carried, pool).whenComplete((done, failure) -> {
            if (failure != null) {
                log.atWarn().addKeyValue("key", key.toString()).setCause(failure).log("work handed to the process pool failed");
            }
            last.remove(key, ended);
            ended.complete(null);
        });
    }
}
