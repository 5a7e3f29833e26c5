package org.agentplatform.command.task;

import static org.agentplatform.command.FixtureMatchers.refused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.Attachment;
import org.agentplatform.kernel.task.TaskCommand.BeginTaskTurn;
import org.agentplatform.kernel.task.TaskCommand.CancelTask;
import org.agentplatform.kernel.task.TaskCommand.CompleteTask;
import org.agentplatform.kernel.task.TaskCommand.ContinueTask;
import org.agentplatform.kernel.task.TaskCommand.CreateTask;
import org.agentplatform.kernel.task.TaskCommand.FailTask;
import org.agentplatform.kernel.task.TaskCommand.RejectTask;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskAuth;
import org.agentplatform.kernel.task.TaskCommand.RequestTaskInput;
import org.agentplatform.kernel.task.TaskCommand.StartTask;
import org.agentplatform.kernel.task.TaskEvent.TaskAuthRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskCanceled;
import org.agentplatform.kernel.task.TaskEvent.TaskCompleted;
import org.agentplatform.kernel.task.TaskEvent.TaskContinued;
import org.agentplatform.kernel.task.TaskEvent.TaskCreated;
import org.agentplatform.kernel.task.TaskEvent.TaskFailed;
import org.agentplatform.kernel.task.TaskEvent.TaskInputRequired;
import org.agentplatform.kernel.task.TaskEvent.TaskRejected;
import org.agentplatform.kernel.task.TaskEvent.TaskStarted;
import org.agentplatform.kernel.task.TaskEvent.TaskTimedOut;
import org.agentplatform.kernel.task.TaskEvent.TaskTurnBegan;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskId;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskOrigin;
import org.agentplatform.kernel.task.TaskRef;
import org.agentplatform.kernel.task.TaskStatus;
import org.agentplatform.kernel.task.TurnBegan;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TaskTest {

    private static final TaskId ID = TaskId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final TaskRef REF = new TaskRef(ID, OWNER, AgentId.random(), InstanceId.random(), "ctx-1");
    private static final TaskMessage ASK = TaskMessage.user("summarize this",
            List.of(new Attachment("f-1", "report.txt", "text/plain", 12, "ab".repeat(32))));
    private static final TaskMessage ANSWER = TaskMessage.user("the blue one", List.of());
    private static final TaskMessage REPLY = TaskMessage.agent("echo: summarize this");
    private static final TaskMessage QUESTION = TaskMessage.agent("which one?");
    private static final TaskFailure OFFLINE = new TaskFailure("agent_offline", "The agent's instance stopped");
    /** The turn's window (the global index of the event that handed it over) and when a worker began it. */
    private static final TurnBegan BEGAN = new TurnBegan(41, Instant.parse("2026-11-26T10:00:00Z"));

    private AggregateTestFixture<Task> fixture;
    private TaskCreated created;
    /** Turn 1 handed over, waiting for a worker: the task is still queued. */
    private TaskStarted started;
    /** A worker began turn 1: the task is running. */
    private TaskTurnBegan began;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Task.class);
        created = new TaskCreated(REF, ASK, null, TaskOrigin.TASKS, 1L);
        started = new TaskStarted(REF, 1, 3, ASK, TaskOrigin.TASKS, true);
        began = new TaskTurnBegan(REF, 1, BEGAN.window(), BEGAN.at());
    }

    private CreateTask create(Instant deadline) {
        return new CreateTask(ID, OWNER, REF.agentId(), REF.instanceId(), "ctx-1", ASK, deadline, TaskOrigin.TASKS, 1L);
    }

    @Test
    void anInvokesTurnIsInteractiveAndATasksIsNot() {
        fixture.givenNoPriorActivity()
                .when(new CreateTask(ID, OWNER, REF.agentId(), REF.instanceId(), "ctx-1", ASK, null, TaskOrigin.INVOKE, 1L))
                .expectEvents(new TaskCreated(REF, ASK, null, TaskOrigin.INVOKE, 1L), new TaskStarted(REF, 1, 1, ASK, TaskOrigin.INVOKE, true));
        assertThat(new TaskStarted(REF, 1, 1, ASK, TaskOrigin.INVOKE, true).interactive()).isTrue();
        assertThat(started.interactive()).isFalse();
        assertThat(new TaskStarted(REF, 1, 3, ASK, null, null).interactive()).as("stored before the origin was carried").isFalse();
    }

    @Test
    void aTaskCreatedAtARuntimeEpochStartsItsFirstTurnAtOnce() {
        fixture.givenNoPriorActivity().when(create(null))
                .expectEvents(created, new TaskStarted(REF, 1, 1, ASK, TaskOrigin.TASKS, true))
                .expectNoScheduledDeadlines();
    }

    @Test
    void theCreateAnswersTheInstantItsCreationIsStoredAt() {
        fixture.givenNoPriorActivity().when(create(null)).expectSuccessfulHandlerExecution()
                .expectResultMessagePayload(fixture.currentTime().truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void aTaskCreatedWithoutAnEpochIsQueuedUntilStarted() {
        CreateTask unplaced = new CreateTask(ID, OWNER, REF.agentId(), REF.instanceId(), "ctx-1", ASK, null, TaskOrigin.TASKS, null);
        fixture.givenNoPriorActivity().when(unplaced).expectEvents(new TaskCreated(REF, ASK, null, TaskOrigin.TASKS, null));
    }

    @Test
    void aDeadlineIsScheduledWhenGiven() {
        Instant deadline = fixture.currentTime().plus(Duration.ofMinutes(5));
        fixture.givenNoPriorActivity()
                .when(create(deadline))
                .expectEvents(new TaskCreated(REF, ASK, deadline, TaskOrigin.TASKS, 1L), new TaskStarted(REF, 1, 1, ASK, TaskOrigin.TASKS, true))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(5), Task.DEADLINE);
    }

    @Test
    void startingRunsTheFirstTurnWithTheFirstMessage() {
        fixture.given(created).when(new StartTask(ID, 3)).expectEvents(started);
    }

    @Test
    void aHandedOverTurnLeavesTheTaskQueuedUntilAWorkerBeginsIt() {
        assertThat(started.status()).isEqualTo(TaskStatus.QUEUED);
        assertThat(started.changesStatus()).as("no transition to call back about").isFalse();
        fixture.given(created, started).when(new BeginTaskTurn(ID, 1, BEGAN)).expectEvents(began);
    }

    @Test
    void aBeginToldAgainOrLateChangesNothing() {
        fixture.given(created, started, began).when(new BeginTaskTurn(ID, 1, BEGAN)).expectSuccessfulHandlerExecution().expectNoEvents();
        fixture.given(created, started, began, new TaskCompleted(REF, 1, REPLY)).when(new BeginTaskTurn(ID, 1, BEGAN))
                .expectSuccessfulHandlerExecution().expectNoEvents();
        fixture.given(created, started, new TaskCanceled(REF, TaskStatus.QUEUED, null)).when(new BeginTaskTurn(ID, 1, BEGAN))
                .expectSuccessfulHandlerExecution().expectNoEvents();
    }

    @Test
    void aTurnThatEndsAtOnceTellsItBeganWithItsOutcomeInOneCommand() {
        fixture.given(created, started).when(new CompleteTask(ID, 1, REPLY, BEGAN)).expectEvents(began, new TaskCompleted(REF, 1, REPLY));
        fixture.given(created, started).when(new RequestTaskInput(ID, 1, QUESTION, BEGAN))
                .expectEvents(began, new TaskInputRequired(REF, 1, QUESTION));
    }

    @Test
    void aQueuedTurnCannotEndAsAnsweredWithoutHavingBegun() {
        fixture.given(created, started).when(new CompleteTask(ID, 1, REPLY, null)).expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aTurnThatNeverBeganFailsFromQueued() {
        fixture.given(created, started).when(new FailTask(ID, 1, OFFLINE, null, null)).expectEvents(new TaskFailed(REF, 1, OFFLINE, null));
    }

    @Test
    void aStartStoredBeforeTurnsWereToldBegunMeantRunning() {
        TaskStarted stored = new TaskStarted(REF, 1, 3, ASK, TaskOrigin.TASKS, null);
        assertThat(stored.status()).isEqualTo(TaskStatus.RUNNING);
        fixture.given(created, stored).when(new CompleteTask(ID, 1, REPLY, null)).expectEvents(new TaskCompleted(REF, 1, REPLY));
    }

    @Test
    void aTaskStartsOnce() {
        fixture.given(created, started, began).when(new StartTask(ID, 3)).expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void theAgentsReplyCompletesTheTask() {
        fixture.given(created, started, began).when(new CompleteTask(ID, 1, REPLY, BEGAN)).expectEvents(new TaskCompleted(REF, 1, REPLY));
    }

    @Test
    void aQueuedTaskCannotComplete() {
        fixture.given(created).when(new CompleteTask(ID, 0, REPLY, BEGAN)).expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void theAgentAsksForInputAndTheCallerContinues() {
        fixture.given(created, started, began)
                .when(new RequestTaskInput(ID, 1, QUESTION, BEGAN))
                .expectEvents(new TaskInputRequired(REF, 1, QUESTION));
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION))
                .when(new ContinueTask(ID, OWNER, ANSWER))
                .expectEvents(new TaskContinued(REF, 2, ANSWER, true));
    }

    @Test
    void theAgentAsksForAuthorizationAndTheCallerContinues() {
        fixture.given(created, started, began)
                .when(new RequestTaskAuth(ID, 1, QUESTION, BEGAN))
                .expectEvents(new TaskAuthRequired(REF, 1, QUESTION));
        fixture.given(created, started, began, new TaskAuthRequired(REF, 1, QUESTION))
                .when(new ContinueTask(ID, OWNER, ANSWER))
                .expectEvents(new TaskContinued(REF, 2, ANSWER, true));
    }

    @Test
    void theSecondTurnWaitsForAWorkerAndCompletesTheTask() {
        TaskContinued continued = new TaskContinued(REF, 2, ANSWER, true);
        assertThat(continued.status()).as("the caller's answer waits for a worker").isEqualTo(TaskStatus.QUEUED);
        TurnBegan second = new TurnBegan(57, BEGAN.at().plusSeconds(30));
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION), continued)
                .when(new CompleteTask(ID, 2, REPLY, second))
                .expectEvents(new TaskTurnBegan(REF, 2, 57, second.at()), new TaskCompleted(REF, 2, REPLY));
    }

    @Test
    void aLateAnswerToAnEarlierTurnIsRefused() {
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION), new TaskContinued(REF, 2, ANSWER, true))
                .when(new CompleteTask(ID, 1, REPLY, BEGAN))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void theRuntimeCannotAnswerWhileTheTaskWaitsForTheCaller() {
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION))
                .when(new CompleteTask(ID, 1, REPLY, BEGAN))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void onlyAWaitingTaskCanBeContinued() {
        fixture.given(created, started, began).when(new ContinueTask(ID, OWNER, ANSWER)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created).when(new ContinueTask(ID, OWNER, ANSWER)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, started, began, new TaskCompleted(REF, 1, REPLY))
                .when(new ContinueTask(ID, OWNER, ANSWER))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anotherOwnerCannotSeeTheTask() {
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION))
                .when(new ContinueTask(ID, OwnerId.random(), ANSWER))
                .expectException(refused(ErrorCode.AGENT_NOT_FOUND));
        fixture.given(created).when(new CancelTask(ID, OwnerId.random(), null)).expectException(refused(ErrorCode.AGENT_NOT_FOUND));
    }

    @Test
    void theAgentFailsTheTaskInBand() {
        TaskFailure failure = new TaskFailure(TaskFailure.AGENT_REPLY_ERROR, "could not parse the report");
        TaskMessage text = TaskMessage.agent("echo failed: could not parse the report");
        fixture.given(created, started, began)
                .when(new FailTask(ID, 1, failure, text, BEGAN))
                .expectEvents(new TaskFailed(REF, 1, failure, text));
    }

    @Test
    void thePlatformFailsATaskWhoseInstanceIsGone() {
        fixture.given(created).when(new FailTask(ID, 0, OFFLINE, null, null)).expectEvents(new TaskFailed(REF, 0, OFFLINE, null));
        fixture.given(created, started, began).when(new FailTask(ID, 1, OFFLINE, null, null)).expectEvents(new TaskFailed(REF, 1, OFFLINE, null));
    }

    @Test
    void theAgentRejectsTheTask() {
        fixture.given(created, started, began).when(new RejectTask(ID, 1, "not my field")).expectEvents(new TaskRejected(REF, 1, "not my field"));
        fixture.given(created).when(new RejectTask(ID, 0, "agent deleted")).expectEvents(new TaskRejected(REF, 0, "agent deleted"));
    }

    @Test
    void anUnfinishedTaskCanBeCanceledFromEveryStatus() {
        fixture.given(created).when(new CancelTask(ID, OWNER, "changed my mind"))
                .expectEvents(new TaskCanceled(REF, TaskStatus.QUEUED, "changed my mind"));
        fixture.given(created, started).when(new CancelTask(ID, OWNER, "changed my mind"))
                .expectEvents(new TaskCanceled(REF, TaskStatus.QUEUED, "changed my mind"));
        fixture.given(created, started, began).when(new CancelTask(ID, OWNER, null))
                .expectEvents(new TaskCanceled(REF, TaskStatus.RUNNING, null));
        fixture.given(created, started, began, new TaskInputRequired(REF, 1, QUESTION)).when(new CancelTask(ID, OWNER, null))
                .expectEvents(new TaskCanceled(REF, TaskStatus.INPUT_REQUIRED, null));
        fixture.given(created, started, began, new TaskAuthRequired(REF, 1, QUESTION)).when(new CancelTask(ID, OWNER, null))
                .expectEvents(new TaskCanceled(REF, TaskStatus.AUTH_REQUIRED, null));
    }

    @Test
    void aFinishedTaskCannotBeCanceled() {
        fixture.given(created, started, began, new TaskCompleted(REF, 1, REPLY))
                .when(new CancelTask(ID, OWNER, null))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, new TaskCanceled(REF, TaskStatus.QUEUED, null))
                .when(new CancelTask(ID, OWNER, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anAnswerAfterACancelIsRefused() {
        fixture.given(created, started, began, new TaskCanceled(REF, TaskStatus.RUNNING, null))
                .when(new CompleteTask(ID, 1, REPLY, BEGAN))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void theDeadlineTimesOutAnUnfinishedTask() {
        Instant deadline = fixture.currentTime().plus(Duration.ofMinutes(5));
        fixture.givenNoPriorActivity()
                .andGivenCommands(create(deadline), new RequestTaskInput(ID, 1, QUESTION, BEGAN))
                .whenTimeElapses(Duration.ofMinutes(6))
                .expectEvents(new TaskTimedOut(REF, TaskStatus.INPUT_REQUIRED, null));
    }

    @Test
    void theDeadlineTimesOutAQueuedOrRunningTask() {
        Instant deadline = fixture.currentTime().plus(Duration.ofMinutes(5));
        fixture.givenNoPriorActivity()
                .andGivenCommands(new CreateTask(ID, OWNER, REF.agentId(), REF.instanceId(), "ctx-1", ASK, deadline, TaskOrigin.TASKS, null))
                .whenTimeElapses(Duration.ofMinutes(6))
                .expectEvents(new TaskTimedOut(REF, TaskStatus.QUEUED, null));
        fixture.givenNoPriorActivity()
                .andGivenCommands(create(deadline))
                .whenTimeElapses(Duration.ofMinutes(6))
                .expectEvents(new TaskTimedOut(REF, TaskStatus.QUEUED, null));
        fixture.givenNoPriorActivity()
                .andGivenCommands(create(deadline), new BeginTaskTurn(ID, 1, BEGAN))
                .whenTimeElapses(Duration.ofMinutes(6))
                .expectEvents(new TaskTimedOut(REF, TaskStatus.RUNNING, null));
    }

    @Test
    void aWaitingTaskTakesNoRuntimeAnswerOfAnyKind() {
        TaskInputRequired waiting = new TaskInputRequired(REF, 1, QUESTION);
        fixture.given(created, started, began, waiting).when(new RejectTask(ID, 1, "late")).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, started, began, waiting).when(new FailTask(ID, 1, OFFLINE, null, null)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created, started, began, waiting).when(new RequestTaskAuth(ID, 1, QUESTION, BEGAN))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(created).when(new RequestTaskInput(ID, 0, QUESTION, BEGAN)).expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void theDeadlineLeavesAFinishedTaskAlone() {
        Instant deadline = fixture.currentTime().plus(Duration.ofMinutes(5));
        fixture.givenNoPriorActivity()
                .andGivenCommands(create(deadline), new CompleteTask(ID, 1, REPLY, BEGAN))
                .whenTimeElapses(Duration.ofMinutes(6))
                .expectNoEvents();
    }

    @Test
    void aTimedOutTaskTakesNoLateAnswer() {
        fixture.given(created, started, began, new TaskTimedOut(REF, TaskStatus.RUNNING, null))
                .when(new CompleteTask(ID, 1, REPLY, BEGAN))
                .expectException(refused(ErrorCode.CONFLICT));
    }
}
