package org.agentplatform.api.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.TaskLogEntry;
import org.agentplatform.query.task.TaskProjection;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A task's log as server-sent events: every row after the cursor in offset order ({@code id:} = offset,
 * {@code event:} = its kind), then, once the task has finished, an {@code error} frame when it ended in
 * error and the {@code done} frame. A cursor older than pruned chunks first gets {@code backfill_truncated}.
 * Notifications wake the stream and the rows are read; comments keep it alive.
 */
final class TaskStream {

    private static final Logger log = LoggerFactory.getLogger(TaskStream.class);
    private static final int BATCH = 500;
    private static final Object END = new Object();

    private final TaskReads tasks;
    private final ChangeFeed feed;
    private final JsonMapper json;
    private final Duration heartbeat;
    private final OpenStreams open;

    TaskStream(TaskReads tasks, ChangeFeed feed, JsonMapper json, Duration heartbeat, OpenStreams open) {
        this.tasks = tasks;
        this.feed = feed;
        this.json = json;
        this.heartbeat = heartbeat;
        this.open = open;
    }

    Flux<ServerSentEvent<String>> after(TaskRecord task, long cursor) {
        AtomicLong last = new AtomicLong(cursor);
        Flux<Object> backfill = task.prunedThrough() != null && cursor < task.prunedThrough()
                ? tasks.log(task.id(), cursor, true, 1).next()
                        .map(oldest -> (Object) frame("backfill_truncated", backfillTruncated(oldest.offset(), cursor))).flux()
                : Flux.empty();
        // the feed is subscribed before the first read, so no commit slips between them
        Flux<Object> rows = Flux.merge(feed.on(TaskProjection.CHANNEL, task.id().toString()).map(change -> 0L), Mono.just(0L))
                .onBackpressureLatest()
                .concatMap(wake -> drain(task, last), 1);
        Flux<Object> keepAlive = Flux.interval(heartbeat).map(tick -> ServerSentEvent.<String>builder().comment("keep-alive").build());
        return open.track(OpenStreams.TASK, Flux.merge(backfill.concatWith(rows), keepAlive)
                .takeUntil(item -> item == END)
                .filter(item -> item != END)
                .map(this::event)
                .onErrorResume(failure -> {
                    log.atWarn().addKeyValue("task_id", task.id().toString()).setCause(failure).log("task stream failed");
                    return Flux.just(event(frame("error", errorFrame("internal_error", 500,
                            "The stream failed; reconnect with Last-Event-ID"))));
                }));
    }

    /**
     * Every row after {@code last}, batch by batch, then the closing frames once the task has finished and
     * all its rows are out. The task is read before its rows: the projection commits a task's terminal
     * status and its last rows together, so when that earlier read shows the task finished, the rows read
     * after it hold everything up to the terminal status. (Read the other way round, a commit landing
     * between the two reads would close the stream before its last rows.)
     */
    private Flux<Object> drain(TaskRecord task, AtomicLong last) {
        return tasks.find(task.id()).flatMapMany(before -> tasks.log(task.id(), last.get(), true, BATCH).collectList()
                .flatMapMany(rows -> {
                    List<Object> out = new ArrayList<>();
                    for (TaskLogEntry row : rows) {
                        out.add(row(task, row));
                        last.set(row.offset());
                        if (isTerminalStatus(row)) {
                            return Flux.fromIterable(out).concatWith(tasks.find(task.id()).flatMapMany(this::closing));
                        }
                    }
                    if (rows.size() == BATCH) {
                        return Flux.fromIterable(out).concatWith(Flux.defer(() -> drain(task, last)));
                    }
                    // every row up to the terminal status is at or before the cursor: the stream resumed past it
                    return before.status().isTerminal() ? Flux.fromIterable(out).concatWith(closing(before)) : Flux.fromIterable(out);
                }));
    }

    private static boolean isTerminalStatus(TaskLogEntry row) {
        return TaskProjection.TASK_STATUS.equals(row.kind())
                && TaskStatus.fromWireName(row.status()).map(TaskStatus::isTerminal).orElse(false);
    }

    /** The contract's closing frames: {@code error} (as the blocking call would answer) unless the agent reported it, then {@code done}. */
    private Flux<Object> closing(TaskRecord task) {
        Optional<TaskError> error = TaskError.of(task);
        List<Object> frames = new ArrayList<>();
        error.filter(failure -> !failure.isAgentReported())
                .ifPresent(failure -> frames.add(frame("error", errorFrame(failure.code(), failure.httpStatus(), failure.message()))));
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("type", "done");
        done.put("text", task.text());
        done.put("context_id", task.contextId());
        done.put("is_error", error.isPresent());
        done.put("error", error.map(TaskError::message).orElse(null));
        done.put("code", error.map(TaskError::code).orElse(null));
        frames.add(frame("done", done));
        frames.add(END);
        return Flux.fromIterable(frames);
    }

    private Object row(TaskRecord task, TaskLogEntry row) {
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
        return new Frame(Long.toString(row.offset()), row.kind(), data);
    }

    private static Map<String, Object> backfillTruncated(long oldest, long requested) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "backfill_truncated");
        data.put("oldest_redis_offset", oldest);
        data.put("requested_offset", requested);
        return data;
    }

    private static Map<String, Object> errorFrame(String code, int status, String message) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "error");
        data.put("code", code);
        data.put("status_code", status);
        data.put("message", message);
        return data;
    }

    private static Frame frame(String event, Map<String, Object> data) {
        return new Frame(null, event, data);
    }

    @SuppressWarnings("unchecked")
    private ServerSentEvent<String> event(Object item) {
        if (item instanceof ServerSentEvent<?> comment) {
            return (ServerSentEvent<String>) comment;
        }
        Frame frame = (Frame) item;
        ServerSentEvent.Builder<String> builder = ServerSentEvent.builder(json.writeValueAsString(frame.data())).event(frame.event());
        return frame.id() == null ? builder.build() : builder.id(frame.id()).build();
    }

    /** One frame: {@code id} null for frames that are not rows of the log (backfill_truncated, error, done). */
    private record Frame(String id, String event, Map<String, Object> data) {
    }
}
