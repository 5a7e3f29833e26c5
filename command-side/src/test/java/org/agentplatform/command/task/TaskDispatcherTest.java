package org.agentplatform.command.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.agentplatform.command.NewestFirstPool;
import org.agentplatform.command.turn.RecordingRuntime;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.kernel.task.TaskEvent.TaskCanceled;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTimedOut;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.kernel.task.TaskStatus;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.junit.jupiter.api.Test;

/**
 * A canceled or timed-out task's turn is stopped after the runtime has it, however the process pool orders the work handed
 * to it: a stop that came first found no turn to stop, and the turn then ran for a task already over.
 */
class TaskDispatcherTest {

    private final InstanceId instance = InstanceId.random();
    private final TaskRef task = new TaskRef(TaskId.random(), OwnerId.random(), AgentId.random(), instance, "ctx");
    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final RecordingRuntime runtime = new RecordingRuntime();
    private final NewestFirstPool pool = new NewestFirstPool();
    private final TaskDispatcher dispatcher = new TaskDispatcher(DefaultCommandGateway.builder().commandBus(bus).build(), runtime,
            serving -> List.of(), pool);

    @Test
    void aCancelAfterAContinueStopsTheTaskAfterItsContinuedTurnIsHandedOver() {
        bus.subscribe(CheckInstanceReadiness.class.getName(),
                command -> new Readiness(instance, InstanceStatus.RUNNING, 1, "local", InstanceKind.LINUX));

        dispatcher.on(new TaskContinued(task, 2, TaskMessage.user("more", List.of()), false), 42L);
        dispatcher.on(new TaskCanceled(task, TaskStatus.RUNNING, "enough"));
        pool.runAll();

        assertThat(runtime.asked()).containsExactly("start " + task.taskId().value() + " 2", "stop " + task.taskId().value());
    }

    @Test
    void aTimeoutInTheBatchThatStartedTheTaskStopsItsTurnAfterTheBatchHandsItOver() {
        DefaultUnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(null);
        dispatcher.on(new TaskStarted(task, 1, 1, TaskMessage.user("hello", List.of()), TaskOrigin.TASKS, false), 41L);
        dispatcher.on(new TaskTimedOut(task, TaskStatus.RUNNING, Instant.now()));
        pool.runAll();
        assertThat(runtime.asked()).as("nothing before the batch commits").isEmpty();

        batch.commit();
        pool.runAll();

        assertThat(runtime.asked()).containsExactly("start " + task.taskId().value() + " 1", "stop " + task.taskId().value());
    }

    @Test
    void theRecoveryOfALostHandOffLooksInTheTasksLaneAfterAStopHandedOnBeforeIt() {
        dispatcher.on(new TaskCanceled(task, TaskStatus.RUNNING, "enough"));
        CompletableFuture<List<String>> seen = dispatcher.inOrder(task.taskId(), () -> List.copyOf(runtime.asked()));
        pool.runAll();

        assertThat(seen).as("what the runtime had been asked when the recovery looked")
                .isCompletedWithValue(List.of("stop " + task.taskId().value()));
    }
}
