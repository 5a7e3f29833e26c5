package org.agentplatform.query.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.agentplatform.infra.support.ApiTest;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskEvent.TaskCompleted;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTurnBegan;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.query.WriteBatching;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The task projection's folded writes on PostgreSQL: a task's events projected in one batch (its creation with its first
 * turn's hand-off, the turn's start with its outcome, each pair one statement) leave the view and the log as the same
 * events projected one by one do, and projected again (a replay) change nothing; a batch that starts after the creation
 * was projected alone still applies the hand-off.
 */
class TaskProjectionFoldTest extends ApiTest {

    private static final Instant CREATED_AT = Instant.parse("2026-12-07T10:00:00Z");
    private static final long INDEX = 9_000_000;

    @Autowired
    private PlatformTransactionManager transactions;

    /** Holds every statement to the commit, as the processor does. */
    private static final WriteBatching HOLDING = new WriteBatching() {
        @Override
        public boolean holding() {
            return true;
        }

        @Override
        public void failed(RuntimeException failure) {
        }
    };

    /** A task's four events, projected through {@code projection}: created, its turn handed over, begun, completed. */
    private static List<Consumer<TaskProjection>> lifeOf(TaskRef task) {
        TaskMessage input = TaskMessage.user("hello", List.of());
        return List.of(
                projection -> projection.on(new TaskCreated(task, input, null, TaskOrigin.TASKS, 1L), 0, CREATED_AT, INDEX, token(INDEX)),
                projection -> projection.on(new TaskStarted(task, 1, 1L, input, TaskOrigin.TASKS, true), 1, CREATED_AT, INDEX + 1,
                        token(INDEX + 1)),
                projection -> projection.on(new TaskTurnBegan(task, 1, INDEX + 1, CREATED_AT.plusMillis(5)), 2, CREATED_AT.plusMillis(7)),
                projection -> projection.on(new TaskCompleted(task, 1, TaskMessage.agent("hello back")), 3, CREATED_AT.plusMillis(7),
                        INDEX + 3, token(INDEX + 3)));
    }

    @Test
    void aBatchsFoldedWritesLeaveWhatTheEventsOneByOneLeave() {
        TaskRef folded = task();
        TaskRef oneByOne = task();
        inOneTransaction(new TaskProjection(jdbc(), HOLDING), lifeOf(folded));
        lifeOf(oneByOne).forEach(event -> event.accept(new TaskProjection(jdbc())));

        assertThat(view(folded)).isEqualTo(view(oneByOne)).containsEntry("status", "completed").containsEntry("version", 3L);
        assertThat(log(folded)).isEqualTo(log(oneByOne)).hasSize(5);

        // projected again, folded (a replay from an older token): nothing changes
        Map<String, Object> before = view(folded);
        inOneTransaction(new TaskProjection(jdbc(), HOLDING), lifeOf(folded));
        assertThat(view(folded)).isEqualTo(before);
        assertThat(log(folded)).isEqualTo(log(oneByOne));
    }

    @Test
    void aHandOffFoldedWithItsCreationStillAppliesWhenTheCreationWasProjectedAlready() {
        TaskRef task = task();
        TaskRef reference = task();
        List<Consumer<TaskProjection>> events = lifeOf(task);
        inOneTransaction(new TaskProjection(jdbc(), HOLDING), events.subList(0, 1));
        // the creation's row exists at version 0: the folded creation and hand-off must apply the hand-off
        inOneTransaction(new TaskProjection(jdbc(), HOLDING), events.subList(0, 2));
        lifeOf(reference).subList(0, 2).forEach(event -> event.accept(new TaskProjection(jdbc())));

        assertThat(view(task)).isEqualTo(view(reference)).containsEntry("turn", 1).containsEntry("version", 1L);
        assertThat(log(task)).isEqualTo(log(reference));
    }

    private void inOneTransaction(TaskProjection projection, List<Consumer<TaskProjection>> events) {
        new TransactionTemplate(transactions).executeWithoutResult(status -> events.forEach(event -> event.accept(projection)));
    }

    private static TaskRef task() {
        return new TaskRef(new TaskId(UUID.randomUUID()), new OwnerId(UUID.randomUUID()), new AgentId(UUID.randomUUID()),
                new InstanceId(UUID.randomUUID()), "context-" + UUID.randomUUID());
    }

    private static GapAwareTrackingToken token(long index) {
        return GapAwareTrackingToken.newInstance(index, Set.of());
    }

    /** The task's row, without what names the task. */
    private Map<String, Object> view(TaskRef task) {
        return jdbc().queryForMap("SELECT status, turn, text, error_code, error_message, deadline, last_offset, change_offset, version,"
                + " created_at, updated_at, origin FROM task_view WHERE id = ?", task.taskId().value());
    }

    /** The task's log, without its channel's id. */
    private List<Map<String, Object>> log(TaskRef task) {
        return jdbc().queryForList("SELECT log_offset, kind, turn, role, status, text, attachments::text AS attachments, data::text AS data,"
                + " occurred_at FROM channel_message WHERE channel_id = ? ORDER BY log_offset", task.taskId().value());
    }
}
