package org.agentplatform.query.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.RecentEvents.RecentEvent;
import org.agentplatform.query.RecentEvents;
import org.agentplatform.query.SqlTime;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelLog;
import reactor.core.publisher.Mono;

/**
 * A task created a moment ago, from its events as this node's reader of the store holds them ({@link RecentEvents}),
 * before its projection has committed them: its record and the rows of its log as {@link TaskProjection} writes them
 * (the same offsets, kinds and contents), so a stream opened on it can start at once and go on from the read model
 * after them. Only the creation and the first start are folded: chunks are streamed in the window of the event that
 * started their turn, so rows of a later event could not be shown before them.
 */
public final class FreshTasks {

    private final RecentEvents recent;
    private final RecentEvents store;

    /** The task and the rows of its log up to its last folded event. */
    public record FreshTask(TaskRecord task, List<ChannelEntry> rows) {
    }

    /**
     * @param recent what the node's reader holds
     * @param store  the event store itself, read when the reader no longer holds a task its read model does not show yet
     */
    public FreshTasks(RecentEvents recent, RecentEvents store) {
        this.recent = recent;
        this.store = store;
    }

    /** The task as its creation (and start, if the reader holds it) left it; empty when the reader does not hold its creation within {@code wait}. */
    public Mono<FreshTask> created(TaskId taskId, Duration wait) {
        return recent.of(taskId.toString(), wait).flatMap(events -> Mono.justOrEmpty(fold(events)));
    }

    /** As {@link #created}, from the events in the store (a backlog the reader has moved past); empty for a task the store does not hold. */
    public Mono<FreshTask> stored(TaskId taskId) {
        return store.of(taskId.toString(), Duration.ZERO).flatMap(events -> Mono.justOrEmpty(fold(events)));
    }

    /** The creation, then the start if it follows it: folded as the projection folds them. */
    static Optional<FreshTask> fold(List<RecentEvent> events) {
        if (events.isEmpty() || events.getFirst().sequence() != 0 || !(events.getFirst().payload() instanceof TaskCreated created)) {
            return Optional.empty();
        }
        RecentEvent first = events.getFirst();
        List<ChannelEntry> rows = new ArrayList<>(ChannelLog.entries(first.globalIndex(), first.timestamp(), 0, TaskProjection.rows(created)));
        TaskStatus status = created.status();
        int turn = 0;
        long version = first.sequence();
        if (events.size() > 1 && events.get(1).sequence() == 1 && events.get(1).payload() instanceof TaskStarted started) {
            RecentEvent second = events.get(1);
            rows.addAll(ChannelLog.entries(second.globalIndex(), second.timestamp(), started.turn(), TaskProjection.rows(started)));
            status = started.status();
            turn = started.turn();
            version = second.sequence();
        }
        ChannelEntry last = rows.getLast();
        TaskRecord task = new TaskRecord(created.taskId(), created.task().ownerId(), created.task().agentId(), created.task().instanceId(),
                created.task().contextId(), created.origin(), status, turn, null, null, null,
                created.deadline() == null ? null : SqlTime.asStored(created.deadline()), last.offset(), last.offset(), null, version,
                rows.getFirst().occurredAt(), last.occurredAt());
        return Optional.of(new FreshTask(task, List.copyOf(rows)));
    }
}
