package org.agentplatform.api.task;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.channel.ChannelStream.Frame;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A task's log as server-sent events ({@link ChannelStream}): its rows, then, once the task has finished, an
 * {@code error} frame when it ended in error (unless the agent reported it) and the {@code done} frame.
 */
final class TaskStream {

    private final TaskReads tasks;
    private final ChannelStream stream;

    TaskStream(TaskReads tasks, ChannelStream stream) {
        this.tasks = tasks;
        this.stream = stream;
    }

    Flux<ServerSentEvent<String>> after(TaskRecord task, long cursor) {
        return stream.after(OpenStreams.TASK, new Source(task), task, task.prunedThrough(), cursor);
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
        public Map<String, Object> data(ChannelEntry row) {
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
            error.filter(failure -> !failure.isAgentReported()).ifPresent(failure -> frames.add(
                    Frame.of("error", ChannelStream.errorFrame(failure.code(), failure.httpStatus(), failure.message()))));
            frames.add(Frame.of("done", ChannelStream.doneFrame(finished.text(), finished.contextId(),
                    error.map(TaskError::message).orElse(null), error.map(TaskError::code).orElse(null))));
            return frames;
        }
    }
}
