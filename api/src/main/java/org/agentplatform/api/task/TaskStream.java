package org.agentplatform.api.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.agentplatform.api.channel.ChannelStream.Frame;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.task.FreshTasks;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A task's log as server-sent events ({@link ChannelStream}): its rows, then, once the task has finished, an
 * {@code error} frame when it ended in error (unless the agent reported it) and the {@code done} frame.
 */
final class TaskStream {

    private final TaskReads tasks;
    private final FreshTasks fresh;
    private final ChannelStream stream;
    private final PersonalContent content;

    /** A task to stream, and the rows of its log known from the event store before its read model shows them (if any). */
    record Opened(TaskRecord task, List<ChannelEntry> known) {
    }

    TaskStream(TaskReads tasks, FreshTasks fresh, ChannelStream stream, PersonalContent content) {
        this.tasks = tasks;
        this.content = content;
        this.fresh = fresh;
        this.stream = stream;
    }

    /**
     * The task to stream from its start, waiting up to {@code wait} for one created a moment ago: whichever answers first
     * of its events as this node's reader holds them ({@link FreshTasks}: usually before its projection has committed) and
     * the read model ({@link TaskReads#findCreated}, which also answers for a task the store does not know: empty); when
     * neither has it by then (a backlog the reader has moved past and the projection has not reached), its first events
     * as the store holds them.
     */
    Mono<Opened> open(TaskId taskId, Duration wait) {
        return firstValue(fresh.created(taskId, wait).map(task -> new Opened(task.task(), task.rows())),
                tasks.findCreated(taskId, wait).map(task -> new Opened(task, List.of()))
                        .switchIfEmpty(Mono.defer(() -> fresh.stored(taskId).map(task -> new Opened(task.task(), task.rows())))));
    }

    Flux<ServerSentEvent<String>> after(TaskRecord task, long cursor) {
        return stream.after(OpenStreams.TASK, new Source(task), task, task.prunedThrough(), cursor);
    }

    /**
     * A stream resumed after {@code cursor} of a task that may have been read from the store while its read model lags:
     * the first batch reads the read model's snapshot, so the stream cannot end before the rows the read model has yet to show.
     */
    Flux<ServerSentEvent<String>> resumed(TaskRecord task, long cursor) {
        return stream.after(OpenStreams.TASK, new Source(task), null, task.prunedThrough(), cursor);
    }

    /** The stream of an opened task: its known rows first, then the read model's after them. */
    Flux<ServerSentEvent<String>> after(Opened opened, long cursor) {
        if (opened.known().isEmpty()) {
            return after(opened.task(), cursor);
        }
        // the record is folded from events, not read: the first batch reads the snapshot
        return stream.after(OpenStreams.TASK, new Source(opened.task()), null, opened.known(), opened.task().prunedThrough(), cursor);
    }

    /**
     * The first value of {@code preferred} (subscribed first: it may answer at once, and then {@code decisive} is not asked)
     * or {@code decisive}; what {@code decisive} answers (empty, an error) once it ends without a value first. Errors of
     * {@code preferred} are left to {@code decisive}. The slower read is canceled before the first value is handed on.
     */
    static <T> Mono<T> firstValue(Mono<T> preferred, Mono<T> decisive) {
        return Mono.create(sink -> {
            AtomicBoolean decided = new AtomicBoolean();
            Disposable.Composite both = Disposables.composite();
            sink.onDispose(both);
            Consumer<T> first = value -> {
                if (decided.compareAndSet(false, true)) {
                    both.dispose();
                    sink.success(value);
                }
            };
            both.add(preferred.subscribe(first, failure -> { }));
            if (!decided.get()) {
                both.add(decisive.subscribe(first, failure -> {
                    if (decided.compareAndSet(false, true)) {
                        sink.error(failure);
                    }
                }, () -> {
                    if (decided.compareAndSet(false, true)) {
                        sink.success();
                    }
                }));
            }
        });
    }

    private final class Source implements ChannelStream.Source<TaskRecord> {

        private final TaskRecord task;

        Source(TaskRecord task) {
            this.task = task;
        }

        @Override
        public UUID channel() {
            return task.id().value();
        }

        @Override
        public Mono<TaskRecord> snapshot() {
            return tasks.find(task.id());
        }

        @Override
        public Flux<ChannelEntry> rows(long since, int limit) {
            return tasks.log(task.id(), since, true, limit);
        }

        @Override
        public boolean isOver(TaskRecord snapshot) {
            return snapshot.status().isTerminal();
        }

        @Override
        public boolean ends(ChannelEntry row) {
            return TaskProjection.TASK_STATUS.equals(row.kind())
                    && TaskStatus.fromWireName(row.status()).map(TaskStatus::isTerminal).orElse(false);
        }

        @Override
        public Map<String, Object> data(ChannelEntry stored) {
            ChannelEntry row = stored.personal(content.opener(task.ownerId()));
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("type", row.kind());
            data.put("task_id", task.id().toString());
            data.put("context_id", task.contextId());
            if (TaskProjection.TASK_STATUS.equals(row.kind())) {
                data.put("status", row.status());
                data.put("final", TaskStatus.fromWireName(row.status()).map(TaskStatus::isTerminal).orElse(false));
            } else {
                data.put("turn", row.turn());
                data.put("role", row.role());
                data.put("text", row.text());
                if (!row.attachments().isEmpty()) {
                    data.put("attachments", row.attachments());
                }
            }
            data.put("timestamp", row.occurredAt().toString());
            return data;
        }

        /** The contract's closing frames: {@code error} (as the blocking call would answer) unless the agent reported it, then {@code done}. */
        @Override
        public List<Frame> closing(TaskRecord finished) {
            Optional<TaskError> error = TaskError.of(finished);
            List<Frame> frames = new ArrayList<>();
            error.filter(failure -> !failure.isAgentReported()).ifPresent(failure -> frames.add(Frame.at(ChannelStream.errorOffset(finished.lastOffset()),
                    "error", ChannelStream.errorFrame(failure.code(), failure.httpStatus(), failure.message()))));
            String reply = content.open(task.ownerId(), finished.text());
            frames.add(Frame.at(ChannelStream.doneOffset(finished.lastOffset()), "done", ChannelStream.doneFrame(reply,
                    finished.contextId(), error.map(TaskError::message).orElse(null), error.map(TaskError::code).orElse(null))));
            return frames;
        }
    }
}
