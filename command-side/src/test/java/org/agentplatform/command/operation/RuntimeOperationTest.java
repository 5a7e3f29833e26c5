package org.agentplatform.command.operation;

import static org.agentplatform.command.FixtureMatchers.refused;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentplatform.command.FixtureMatchers;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.EffectState;
import org.agentplatform.kernel.operation.OperationCommand.BlockOperationProjection;
import org.agentplatform.kernel.operation.OperationCommand.CancelAnswer;
import org.agentplatform.kernel.operation.OperationCommand.CommitOperation;
import org.agentplatform.kernel.operation.OperationCommand.CompleteOperationProjection;
import org.agentplatform.kernel.operation.OperationCommand.ConfirmOperationCancelled;
import org.agentplatform.kernel.operation.OperationCommand.FailOperation;
import org.agentplatform.kernel.operation.OperationCommand.QueueOperation;
import org.agentplatform.kernel.operation.OperationCommand.RequestOperationCancel;
import org.agentplatform.kernel.operation.OperationCommand.StartOperation;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelRequested;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelled;
import org.agentplatform.kernel.operation.OperationEvent.OperationExpired;
import org.agentplatform.kernel.operation.OperationEvent.OperationFailed;
import org.agentplatform.kernel.operation.OperationEvent.OperationOutcomeUnknown;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionBlocked;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionPending;
import org.agentplatform.kernel.operation.OperationEvent.OperationQueued;
import org.agentplatform.kernel.operation.OperationEvent.OperationRuntimeCommitted;
import org.agentplatform.kernel.operation.OperationEvent.OperationStarted;
import org.agentplatform.kernel.operation.OperationEvent.OperationSucceeded;
import org.agentplatform.kernel.operation.OperationEvent;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationProjection;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.operation.ProjectionState;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.axonframework.messaging.Message;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RuntimeOperationTest {

    private static final OperationId ID = OperationId.random();
    private static final InstanceId INSTANCE = InstanceId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final Map<String, Object> PARAMS = Map.of("agentId", "a1");

    private AggregateTestFixture<RuntimeOperation> fixture;
    private Instant now;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(RuntimeOperation.class);
        now = fixture.currentTime();
    }

    private QueueOperation queue(RuntimeMethod method) {
        return new QueueOperation(ID, INSTANCE, OWNER, method, PARAMS, "agent:a1", "digest", now.plus(Duration.ofMinutes(10)), "req-1");
    }

    private OperationQueued queued(RuntimeMethod method) {
        return new OperationQueued(ID, INSTANCE, OWNER, method, PARAMS, "agent:a1", "digest", now.plus(Duration.ofMinutes(10)), "req-1");
    }

    private OperationStarted started(RuntimeMethod method) {
        return new OperationStarted(ID, INSTANCE, OWNER, method, PARAMS, 3, now.plusSeconds(60));
    }

    @Test
    void queueingSchedulesTheStartDeadline() {
        fixture.givenNoPriorActivity()
                .when(queue(RuntimeMethod.SKILLS_LIST))
                .expectEvents(queued(RuntimeMethod.SKILLS_LIST))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(10), RuntimeOperation.START_DEADLINE);
    }

    @Test
    void neverStartedBeforeItsDeadlineItExpires() {
        fixture.givenCommands(queue(RuntimeMethod.SKILLS_LIST))
                .whenTimeElapses(Duration.ofMinutes(11))
                .expectEventsMatching(FixtureMatchers.matching("expired", events -> payloadIs(events, OperationExpired.class)));
    }

    @Test
    void aStartedOperationDoesNotExpire() {
        fixture.givenCommands(queue(RuntimeMethod.SKILLS_LIST), new StartOperation(ID, 3, now.plusSeconds(60)))
                .whenTimeElapses(Duration.ofMinutes(11))
                .expectEventsMatching(FixtureMatchers.matching("no expiry", events -> !payloadIs(events, OperationExpired.class)));
    }

    @Test
    void startingSchedulesTheAnswerDeadline() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST))
                .when(new StartOperation(ID, 3, now.plusSeconds(60)))
                .expectEvents(started(RuntimeMethod.SKILLS_LIST))
                .expectScheduledDeadlineWithName(Duration.ofSeconds(60), RuntimeOperation.ANSWER_DEADLINE);
    }

    @Test
    void startingTwiceIsRefused() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST))
                .when(new StartOperation(ID, 3, now.plusSeconds(60)))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aSilentRuntimeMakesTheOutcomeUnknown() {
        fixture.givenCommands(queue(RuntimeMethod.SKILLS_LIST), new StartOperation(ID, 3, now.plusSeconds(60)))
                .whenTimeElapses(Duration.ofSeconds(61))
                .expectEventsMatching(FixtureMatchers.matching("outcome unknown at epoch 3", events -> events.stream()
                        .map(message -> ((Message<?>) message).getPayload())
                        .anyMatch(payload -> payload instanceof OperationOutcomeUnknown unknown
                                && unknown.error().effectState() == EffectState.OUTCOME_UNKNOWN
                                && "3".equals(unknown.error().context().activeRuntimeEpoch()))));
    }

    @Test
    void anAnsweredOperationIsNotMadeUnknown() {
        fixture.givenCommands(queue(RuntimeMethod.SKILLS_LIST), new StartOperation(ID, 3, now.plusSeconds(60)),
                        new CommitOperation(ID, "ok"))
                .whenTimeElapses(Duration.ofSeconds(61))
                .expectEventsMatching(FixtureMatchers.matching("nothing", events -> !payloadIs(events, OperationOutcomeUnknown.class)));
    }

    @Test
    void aCommitOfAnUnprojectedMethodSucceedsAtOnce() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST))
                .when(new CommitOperation(ID, "listed"))
                .expectEvents(new OperationRuntimeCommitted(ID, INSTANCE, "listed"),
                        new OperationSucceeded(ID, INSTANCE, OperationProjection.NOT_APPLICABLE));
    }

    @Test
    void aCommitOfAProjectedMethodWaitsForItsProjection() {
        fixture.given(queued(RuntimeMethod.AGENT_CREATE), started(RuntimeMethod.AGENT_CREATE))
                .when(new CommitOperation(ID, Map.of("agentId", "x")))
                .expectEvents(new OperationRuntimeCommitted(ID, INSTANCE, Map.of("agentId", "x")),
                        new OperationProjectionPending(ID, INSTANCE, OWNER, RuntimeMethod.AGENT_CREATE, PARAMS, Map.of("agentId", "x")));
    }

    @Test
    void aProjectionCompletesOrBlocks() {
        OperationProjection applied = new OperationProjection("1", ProjectionState.APPLIED, AgentId.random());
        OperationEvent[] pending = {queued(RuntimeMethod.AGENT_CREATE), started(RuntimeMethod.AGENT_CREATE),
                new OperationRuntimeCommitted(ID, INSTANCE, "x"),
                new OperationProjectionPending(ID, INSTANCE, OWNER, RuntimeMethod.AGENT_CREATE, PARAMS, "x")};
        fixture.given((Object[]) pending).when(new CompleteOperationProjection(ID, applied))
                .expectEvents(new OperationSucceeded(ID, INSTANCE, applied));
        OperationError blocked = error("PROJECTION_BLOCKED", EffectState.COMMITTED);
        fixture.given((Object[]) pending).when(new BlockOperationProjection(ID, blocked))
                .expectEvents(new OperationProjectionBlocked(ID, INSTANCE, blocked));
    }

    @Test
    void aProjectionCannotCompleteBeforeTheCommit() {
        fixture.given(queued(RuntimeMethod.AGENT_CREATE), started(RuntimeMethod.AGENT_CREATE))
                .when(new CompleteOperationProjection(ID, OperationProjection.NOT_APPLICABLE))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aRefusalByTheRuntimeFailsItWithTheOperationsRequestId() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST))
                .when(new FailOperation(ID, error("SKILL_NOT_FOUND", EffectState.FAILED), null))
                .expectEvents(new OperationFailed(ID, INSTANCE, new OperationError("SKILL_NOT_FOUND", "m", EffectState.FAILED,
                        OperationError.RETRY_NONE, "req-1", OperationError.Context.EMPTY), null));
    }

    @Test
    void anOperationCannotFailAfterItsCommit() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST), new OperationRuntimeCommitted(ID, INSTANCE, "x"))
                .when(new FailOperation(ID, error("LATE", EffectState.FAILED), null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void cancellingAQueuedOperationCancelsItAtOnce() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST))
                .when(new RequestOperationCancel(ID, OWNER, "key:1", "k1", "no longer needed"))
                .expectResultMessagePayload(new CancelAnswer(true))
                .expectEventsMatching(FixtureMatchers.matching("cancel requested then cancelled", events ->
                        payloadIs(events, OperationCancelRequested.class) && payloadIs(events, OperationCancelled.class)));
    }

    @Test
    void cancellingARunningOperationWaitsForTheRuntime() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST))
                .when(new RequestOperationCancel(ID, OWNER, "key:1", "k1", null))
                .expectResultMessagePayload(new CancelAnswer(true))
                .expectEvents(new OperationCancelRequested(ID, INSTANCE, OperationStatus.RUNNING, "k1", "key:1", null));
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST),
                        new OperationCancelRequested(ID, INSTANCE, OperationStatus.RUNNING, "k1", "key:1", null))
                .when(new ConfirmOperationCancelled(ID))
                .expectEventsMatching(FixtureMatchers.matching("cancelled", events -> payloadIs(events, OperationCancelled.class)));
    }

    @Test
    void aCancelConfirmationWithoutARequestIsRefused() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST))
                .when(new ConfirmOperationCancelled(ID))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void pastTheCommitACancelIsNotAccepted() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST), new OperationRuntimeCommitted(ID, INSTANCE, "x"))
                .when(new RequestOperationCancel(ID, OWNER, "key:1", "k1", null))
                .expectResultMessagePayload(new CancelAnswer(false))
                .expectNoEvents();
    }

    @Test
    void theSameCancelKeyGetsTheSameAnswerAfterwards() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST),
                        new OperationCancelRequested(ID, INSTANCE, OperationStatus.QUEUED, "k1", "key:1", null),
                        new OperationCancelled(ID, INSTANCE, error("OPERATION_CANCELLED", EffectState.CANCELLED)))
                .when(new RequestOperationCancel(ID, OWNER, "key:1", "k1", null))
                .expectResultMessagePayload(new CancelAnswer(true))
                .expectNoEvents();
        fixture.given(queued(RuntimeMethod.SKILLS_LIST),
                        new OperationCancelRequested(ID, INSTANCE, OperationStatus.QUEUED, "k1", "key:1", null),
                        new OperationCancelled(ID, INSTANCE, error("OPERATION_CANCELLED", EffectState.CANCELLED)))
                .when(new RequestOperationCancel(ID, OWNER, "key:1", "another key", null))
                .expectResultMessagePayload(new CancelAnswer(false));
    }

    @Test
    void anotherOwnersOperationIsNotFound() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST))
                .when(new RequestOperationCancel(ID, OwnerId.random(), "key:2", "k1", null))
                .expectException(refused(ErrorCode.NOT_FOUND));
    }

    @Test
    void aLateAnswerAfterTheOutcomeWentUnknownIsRefused() {
        fixture.given(queued(RuntimeMethod.SKILLS_LIST), started(RuntimeMethod.SKILLS_LIST),
                        new OperationOutcomeUnknown(ID, INSTANCE, error("RUNTIME_OUTCOME_UNKNOWN", EffectState.OUTCOME_UNKNOWN)))
                .when(new CommitOperation(ID, "late"))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void statusesCarryTheirEffectStateAndTerminality() {
        for (OperationStatus status : OperationStatus.values()) {
            boolean terminal = switch (status) {
                case QUEUED, RUNNING, RUNTIME_COMMITTED, PROJECTION_PENDING -> false;
                default -> true;
            };
            assertThat(status.isTerminal()).as(status.wireName()).isEqualTo(terminal);
        }
        assertThat(OperationStatus.PROJECTION_PENDING.effectState()).isEqualTo(EffectState.COMMITTED);
        assertThat(OperationStatus.OUTCOME_UNKNOWN.effectState()).isEqualTo(EffectState.OUTCOME_UNKNOWN);
    }

    private static OperationError error(String code, EffectState effect) {
        return new OperationError(code, "m", effect, OperationError.RETRY_NONE, null, OperationError.Context.EMPTY);
    }

    private static boolean payloadIs(List<?> events, Class<?> type) {
        return events.stream().map(message -> ((Message<?>) message).getPayload()).anyMatch(type::isInstance);
    }
}
