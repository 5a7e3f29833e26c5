package org.agentplatform.command;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
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
        handOn(key, work).whenComplete((done, failure) -> {
            if (failure != null) {
                log.atWarn().addKeyValue("key", key.toString()).setCause(failure).log("work handed to the process pool failed");
            }
        });
    }

    /**
     * Runs {@code work} on the pool after the pieces of {@code key} handed on before it, and answers what it answered: for a
     * caller that decides on what it reads there (a stop handed on before it has run; one handed on after it waits for it).
     * A failure is the caller's, through the answer, not logged here.
     */
    public <T> CompletableFuture<T> call(K key, Supplier<T> work) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        handOn(key, () -> answer.complete(work.get())).whenComplete((done, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(failure instanceof CompletionException wrapped ? wrapped.getCause() : failure);
            }
        });
        return answer;
    }

    /** Hands {@code work} on after the key's last piece; answers its end, failed if it failed or the pool refused it. */
    private CompletableFuture<Void> handOn(K key, Runnable work) {
        Runnable carried = ProcessCommands.carried(work);
        CompletableFuture<Void> ended = new CompletableFuture<>();
        CompletableFuture<Void> before = last.put(key, ended);
        CompletableFuture<Void> after = before == null ? CompletableFuture.completedFuture(null) : before;
        return after.thenRunAsync(carried, pool).whenComplete((done, failure) -> {
            last.remove(key, ended);
            ended.complete(null);
        });
    }
}
