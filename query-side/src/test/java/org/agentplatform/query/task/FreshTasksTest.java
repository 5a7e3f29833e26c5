package org.agentplatform.query.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskEvent.TaskCompleted;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.query.RecentEvents.RecentEvent;
import org.agentplatform.query.channel.ChannelEntry;
import org.agentplatform.query.channel.ChannelOffsets;
import org.junit.jupiter.api.Test;

/** The creation and the first start folded as the projection writes them; nothing past them, nothing without the creation. */
class FreshTasksTest {

    private static final TaskRef TASK = new TaskRef(new TaskId(UUID.randomUUID()), new OwnerId(UUID.randomUUID()),
            new AgentId(UUID.randomUUID()), new InstanceId(UUID.randomUUID()), "ctx");
    private static final TaskMessage ASK = TaskMessage.user("hello", List.of());
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00.123456789Z");
    private static final RecentEvent CREATED = new RecentEvent(new TaskCreated(TASK, ASK, null, TaskOrigin.TASKS, 1L), 0, 40, AT);
    private static final RecentEvent STARTED = new RecentEvent(new TaskStarted(TASK, 1, 7, ASK, TaskOrigin.TASKS, true), 1, 41, AT);
    /** A start stored before turns were told begun: it meant the turn ran. */
    private static final RecentEvent STORED_START = new RecentEvent(new TaskStarted(TASK, 1, 7, ASK, TaskOrigin.TASKS, null), 1, 41, AT);

    @Test
    void theCreationAndItsHandedOverTurnGiveAQueuedTaskAtTurnOne() {
        FreshTasks.FreshTask fresh = FreshTasks.fold(List.of(CREATED, STARTED)).orElseThrow();
        assertThat(fresh.rows()).extracting(ChannelEntry::offset).containsExactly(ChannelOffsets.ofEvent(40), ChannelOffsets.ofEvent(40) + 1);
        assertThat(fresh.rows()).extracting(ChannelEntry::status).containsExactly(null, "queued");
        assertThat(fresh.rows()).extracting(ChannelEntry::occurredAt).containsOnly(Instant.parse("2026-11-25T10:00:00.123457Z"));
        assertThat(fresh.task().status()).as("queued until a worker begins the turn").isEqualTo(TaskStatus.QUEUED);
        assertThat(fresh.task().turn()).isEqualTo(1);
        assertThat(fresh.task().changeOffset()).isEqualTo(ChannelOffsets.ofEvent(40) + 1);
        assertThat(fresh.task().ownerId()).isEqualTo(TASK.ownerId());
        assertThat(fresh.task().agentId()).isEqualTo(TASK.agentId());
    }

    @Test
    void theCreationAndAStoredStartGiveTheRowsOfBoth() {
        FreshTasks.FreshTask fresh = FreshTasks.fold(List.of(CREATED, STORED_START)).orElseThrow();
        assertThat(fresh.rows()).extracting(ChannelEntry::offset)
                .containsExactly(ChannelOffsets.ofEvent(40), ChannelOffsets.ofEvent(40) + 1, ChannelOffsets.ofEvent(41));
        assertThat(fresh.rows()).extracting(ChannelEntry::kind).containsExactly("user_message", "task_status", "task_status");
        assertThat(fresh.rows()).extracting(ChannelEntry::status).containsExactly(null, "queued", "running");
        assertThat(fresh.rows()).extracting(ChannelEntry::turn).containsExactly(1, 0, 1);
        assertThat(fresh.rows().get(2).data()).isEqualTo(Map.of("runtime_epoch", 7L));
        assertThat(fresh.task().status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(fresh.task().changeOffset()).isEqualTo(ChannelOffsets.ofEvent(41));
    }

    @Test
    void nothingPastTheStartNorWithoutTheCreation() {
        RecentEvent completed = new RecentEvent(new TaskCompleted(TASK, 1, TaskMessage.agent("echo: hello")), 2, 42, AT);
        assertThat(FreshTasks.fold(List.of(CREATED, STORED_START, completed)).orElseThrow().rows()).hasSize(3);
        assertThat(FreshTasks.fold(List.of(CREATED)).orElseThrow().task().status()).isEqualTo(TaskStatus.QUEUED);
        assertThat(FreshTasks.fold(List.of(STARTED, completed))).as("the window no longer holds the creation").isEmpty();
        assertThat(FreshTasks.fold(List.of())).isEmpty();
    }
}
