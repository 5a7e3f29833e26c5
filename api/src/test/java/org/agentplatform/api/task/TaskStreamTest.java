package org.agentplatform.api.task;

import org.agentplatform.kernel.privacy.PersonalContent;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.agentplatform.api.channel.ChannelStream;
import org.agentplatform.api.web.OpenStreams;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.RecentEvents;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelLog;
import org.agentplatform.query.channel.ChannelReads;
import org.agentplatform.query.feed.ChangeFeed;
import org.agentplatform.query.task.FreshTasks;
import org.agentplatform.query.task.TaskBacklog;
import org.agentplatform.query.task.TaskReads;
import org.agentplatform.query.task.TaskRecord;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The stream against a store whose last commit (the agent's answer and the terminal status, together
 * with the task record, as the projection commits them) lands before, between or after the stream's
 * reads, or once it waits: every stream ends with the terminal status row, then {@code done}.
 */
class TaskStreamTest {

    private static final TaskId TASK = new TaskId(UUID.fromString("6f1d2f4e-0000-4000-8000-000000000001"));
    private static final Instant AT = Instant.parse("2026-11-22T10:00:00Z");
    private static final List<String> EVERY_KIND = List.of("user_message", "task_status", "task_status", "agent_reply_delta",
            "agent_reply_delta", "agent_message", "task_status", "done");

    @Test
    void everyStreamEndsWithTheTerminalStatusThenDoneWhereverTheLastCommitLands() {
        for (int stream = 0; stream < 1000; stream++) {
            int commitAfterRead = stream % (Store.READS_BEFORE_WAITING + 1);
            assertThat(kinds(stream(new Store(commitAfterRead), -1)))
                    .as("stream %d, the last commit after read %d", stream, commitAfterRead)
                    .containsExactlyElementsOf(EVERY_KIND);
        }
    }

    @Test
    void aResumeSeesOnlyTheRowsAfterItsCursorAndEndsTheSameWay() {
        for (int commitAfterRead = 0; commitAfterRead <= Store.READS_BEFORE_WAITING; commitAfterRead++) {
            assertThat(kinds(stream(new Store(commitAfterRead), Store.offset(2, 1))))
                    .containsExactly("agent_reply_delta", "agent_message", "task_status", "done");
        }
    }

    @Test
    void aResumePastTheTerminalStatusGetsOnlyDone() {
        assertThat(kinds(stream(new Store(0), Store.offset(4, 1)))).containsExactly("done");
    }

    @Test
    void aStreamStartedFromTheCreationsEventsShowsEveryRowOnceWhereverTheLastCommitLands() {
        for (int commitAfterRead = 0; commitAfterRead <= Store.READS_BEFORE_WAITING; commitAfterRead++) {
            Store store = new Store(commitAfterRead);
            // the creation and start as the reader holds them: the first three rows, before the read model's
            TaskStream.Opened opened = new TaskStream.Opened(store.record(false), Store.rows(false).subList(0, 3));
            assertThat(kinds(stream(store).after(opened, -1).collectList().block(Duration.ofSeconds(10))))
                    .as("the last commit after read %d", commitAfterRead)
                    .containsExactlyElementsOf(EVERY_KIND);
        }
    }

    @Test
    void theTaskIsOpenedFromWhicheverAnswersFirst() {
        AtomicInteger asked = new AtomicInteger();
        Mono<String> readModel = Mono.fromCallable(() -> {
            asked.incrementAndGet();
            return "read model";
        });
        assertThat(TaskStream.firstValue(Mono.just("events"), readModel).block()).isEqualTo("events");
        assertThat(asked).as("the events answered at once: the read model is not asked").hasValue(0);
        assertThat(TaskStream.firstValue(Mono.<String>never(), readModel).block()).isEqualTo("read model");
        AtomicInteger canceled = new AtomicInteger();
        assertThat(TaskStream.firstValue(Mono.delay(Duration.ofMillis(50)).map(tick -> "events"),
                Mono.<String>never().doOnCancel(canceled::incrementAndGet)).block(Duration.ofSeconds(5))).isEqualTo("events");
        assertThat(canceled).as("the slower read is canceled").hasValue(1);
        assertThat(TaskStream.firstValue(Mono.<String>never(), Mono.<String>empty()).blockOptional(Duration.ofSeconds(5)))
                .as("an unknown task: the read model's empty answer ends the wait for its events").isEmpty();
        assertThat(TaskStream.firstValue(Mono.<String>error(new IllegalStateException("no reader")), Mono.just("read model")).block())
                .isEqualTo("read model");
    }

    private static TaskStream stream(Store store) {
        return new TaskStream(store, new FreshTasks(RecentEvents.NONE, RecentEvents.NONE), new ChannelStream(store, JsonMapper.builder().build(),
                Duration.ofSeconds(15), new OpenStreams()), PersonalContent.CLEAR);
    }

    private static List<ServerSentEvent<String>> stream(Store store, long cursor) {
        TaskStream stream = stream(store);
        // the route reads the task to open the stream (a read of the store like the stream's own)
        TaskRecord opened = store.find(TASK).block();
        return stream.after(opened, cursor).collectList().block(Duration.ofSeconds(10));
    }

    private static List<String> kinds(List<ServerSentEvent<String>> events) {
        return events.stream().map(ServerSentEvent::event).toList();
    }

    /**
     * A task's log and record before and after the commit of its answer; reads see one or the other,
     * and the commit, made after the {@code commitAfterRead}-th read, notifies like the projection's.
     * A stream is opened on a read of the task, reads the log, then waits (later batches read the task, then the
     * log): a commit after those two reads comes from outside while it waits.
     */
    private static final class Store implements TaskReads, ChangeFeed {

        static final int READS_BEFORE_WAITING = 2;

        private final int commitAfterRead;
        private final AtomicInteger reads = new AtomicInteger();
        private final Set<FluxSink<Change>> listeners = ConcurrentHashMap.newKeySet();
        private volatile boolean committed;

        Store(int commitAfterRead) {
            this.commitAfterRead = commitAfterRead;
            this.committed = commitAfterRead == 0;
        }

        static long offset(long globalIndex, int row) {
            return (globalIndex << 20) + row;
        }

        @Override
        public Mono<TaskRecord> find(TaskId taskId) {
            return Mono.fromSupplier(() -> {
                TaskRecord record = record(committed);
                afterRead();
                return record;
            });
        }

        @Override
        public Flux<ChannelEntry> log(TaskId taskId, long since, boolean withChunks, int limit) {
            return Flux.defer(() -> {
                List<ChannelEntry> rows = rows(committed).stream().filter(row -> row.offset() > since).limit(limit).toList();
                afterRead();
                return Flux.fromIterable(rows);
            });
        }

        private void afterRead() {
            int read = reads.incrementAndGet();
            if (read == commitAfterRead || read == READS_BEFORE_WAITING && commitAfterRead >= READS_BEFORE_WAITING) {
                commit();
            }
        }

        private void commit() {
            if (!committed) {
                committed = true;
                listeners.forEach(listener -> listener.next(new Change(ChannelLog.NOTIFICATIONS, TASK + ":" + offset(4, 1))));
            }
        }

        TaskRecord record(boolean answered) {
            TaskStatus status = answered ? TaskStatus.COMPLETED : TaskStatus.RUNNING;
            return new TaskRecord(TASK, new OwnerId(UUID.randomUUID()), new AgentId(UUID.randomUUID()), new InstanceId(UUID.randomUUID()),
                    "ctx", TaskOrigin.TASKS, status, 1, answered ? "echo: hi" : null, null, null, null,
                    answered ? offset(4, 1) : offset(2, 2), answered ? offset(4, 1) : offset(2, 0), null, answered ? 2 : 1, AT, AT);
        }

        static List<ChannelEntry> rows(boolean answered) {
            List<ChannelEntry> rows = new ArrayList<>(List.of(
                    row(offset(1, 0), "user_message", null),
                    row(offset(1, 1), "task_status", "queued"),
                    row(offset(2, 0), "task_status", "running"),
                    row(offset(2, 1), "agent_reply_delta", null),
                    row(offset(2, 2), "agent_reply_delta", null)));
            if (answered) {
                rows.add(row(offset(4, 0), "agent_message", null));
                rows.add(row(offset(4, 1), "task_status", "completed"));
            }
            return rows;
        }

        private static ChannelEntry row(long offset, String kind, String status) {
            return new ChannelEntry(offset, kind, 1, status == null ? "agent" : null, status, status == null ? "text" : null, List.of(),
                    Map.of(), AT);
        }

        @Override
        public Flux<Change> on(String channel, String key) {
            return Flux.create(sink -> {
                listeners.add(sink);
                sink.onDispose(() -> listeners.remove(sink));
            });
        }

        @Override
        public Flux<Change> every(String channel) {
            return Flux.never();
        }

        @Override
        public Flux<TaskRecord> list(OwnerId ownerId, AgentId agentId, Long since, Long before, java.util.Set<String> statuses, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<ChannelReads.History> history(TaskId taskId, int cap) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<TaskRecord> awaitVersion(TaskId taskId, long version, Duration wait) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<TaskBacklog> backlog(OwnerId ownerId, boolean invokes, long changedAfter, Collection<TaskId> pending) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<TaskRecord> findCreated(TaskId taskId, Duration wait) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<TaskRecord> findAccepted(TaskId taskId, Duration wait) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<TaskRecord> awaitState(TaskId taskId, Predicate<TaskRecord> reached, Duration wait) {
            throw new UnsupportedOperationException();
        }
    }
}
