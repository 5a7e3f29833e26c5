package org.agentplatform.query.task;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.function.Predicate;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelReads;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads of the task read model. Access rules are the caller's to apply. */
public interface TaskReads {

    Mono<TaskRecord> find(TaskId taskId);

    /**
     * The task, also one created a moment ago that the read model does not show yet (the event store knows
     * it): that one once its projection commits, waiting up to {@code wait}. Empty for an unknown task.
     */
    Mono<TaskRecord> findCreated(TaskId taskId, Duration wait);

    /**
     * The task whatever the read model's lag: as {@link #findCreated}, and when the read model still does not show it
     * after {@code wait}, as its stored events make it ({@link StoredTasks}). Empty only for a task the store does not hold.
     */
    Mono<TaskRecord> findAccepted(TaskId taskId, Duration wait);

    /** The task once {@code reached} holds (woken by its commits); empty when it does not within {@code wait}. */
    Mono<TaskRecord> awaitState(TaskId taskId, Predicate<TaskRecord> reached, Duration wait);

    /**
     * The owner's tasks (of one agent, or all; in one of {@code statuses}, or any): without {@code since}, the most
     * recently changed first (with {@code before}, those changed before that offset: the next page back); with it, those
     * changed after that offset, oldest change first (a feed to poll).
     */
    Flux<TaskRecord> list(OwnerId ownerId, @Nullable AgentId agentId, @Nullable Long since, @Nullable Long before, Set<String> statuses,
            int limit);

    /** Log rows after {@code since}, in offset order; chunks only when asked for. */
    Flux<ChannelEntry> log(TaskId taskId, long since, boolean withChunks, int limit);

    /** The newest {@code cap} rows of the log without chunks, oldest first, and whether older ones were left out. */
    Mono<ChannelReads.History> history(TaskId taskId, int cap);

    /**
     * The task at {@code version} or later, once a command stored that version: from the read model when it shows it
     * within {@code wait}, else as its stored events make it.
     */
    Mono<TaskRecord> awaitVersion(TaskId taskId, long version, Duration wait);

    /**
     * The owner's backlog of invokes ({@code invokes}) or of the other tasks: how many are queued or running, how many
     * settled (ended, or waiting for the caller) after the owner's change at {@code changedAfter} (none when it is {@link Long#MAX_VALUE}), the owner's
     * latest change, and which of {@code pending} the read model shows.
     */
    Mono<TaskBacklog> backlog(OwnerId ownerId, boolean invokes, long changedAfter, Collection<TaskId> pending);
}
