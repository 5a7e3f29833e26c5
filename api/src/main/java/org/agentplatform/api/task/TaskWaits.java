package org.agentplatform.api.task;

import java.time.Duration;
import java.util.function.Predicate;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Waiting for a task to reach a state: re-read when the task's notifications wake the wait. */
final class TaskWaits {

    private final TaskReads tasks;
    private final ChangeFeed feed;

    TaskWaits(TaskReads tasks, ChangeFeed feed) {
        this.tasks = tasks;
        this.feed = feed;
    }

    /** The task once {@code reached} holds; empty when it does not within {@code wait}. */
    Mono<TaskRecord> until(TaskId task, Predicate<TaskRecord> reached, Duration wait) {
        // the feed is subscribed before the first read, so no change slips between them
        return Flux.merge(feed.on(TaskProjection.CHANNEL, task.toString()).map(change -> 0L), Mono.just(0L))
                .onBackpressureLatest()
                .concatMap(wake -> tasks.find(task), 1)
                .filter(reached)
                .next()
                .timeout(wait, Mono.empty());
    }
}
