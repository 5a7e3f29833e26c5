package org.agentplatform.command.conversation;

import static org.agentplatform.command.FixtureMatchers.refused;

import java.util.List;
import java.util.UUID;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationCommand.CancelTurn;
import org.agentplatform.kernel.conversation.ConversationCommand.CloseConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.EndTurn;
import org.agentplatform.kernel.conversation.ConversationCommand.OpenConversation;
import org.agentplatform.kernel.conversation.ConversationCommand.PostMessage;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationClosed;
import org.agentplatform.kernel.conversation.ConversationEvent.ConversationOpened;
import org.agentplatform.kernel.conversation.ConversationEvent.MessagePosted;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnCanceled;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnEnded;
import org.agentplatform.kernel.conversation.ConversationEvent.TurnStarted;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.conversation.ConversationRef;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskFailure;
import org.agentplatform.kernel.task.TaskMessage;
import org.agentplatform.kernel.task.TaskStatus;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ConversationTest {

    private static final ConversationId ID = ConversationId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final ConversationRef REF = new ConversationRef(ID, OWNER, AgentId.random(), InstanceId.random(), "ctx-1");
    private static final UUID FIRST = UUID.randomUUID();
    private static final UUID SECOND = UUID.randomUUID();
    private static final UUID THIRD = UUID.randomUUID();
    private static final TaskMessage HELLO = TaskMessage.user("hello", List.of());
    private static final TaskMessage HOW = TaskMessage.user("how are you", List.of());
    private static final TaskMessage BYE = TaskMessage.user("bye", List.of());
    private static final TaskMessage REPLY = TaskMessage.agent("echo: hello");
    private static final TaskFailure OFFLINE = new TaskFailure("agent_offline", "The agent's instance is stopped");

    private AggregateTestFixture<Conversation> fixture;
    private final ConversationOpened opened = new ConversationOpened(REF, "Planning");
    private final MessagePosted firstPosted = new MessagePosted(REF, FIRST, 1, HELLO);
    private final TurnStarted firstStarted = new TurnStarted(REF, 1, FIRST, HELLO);
    private final MessagePosted secondPosted = new MessagePosted(REF, SECOND, 2, HOW);

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Conversation.class);
    }

    @Test
    void openingAConversation() {
        fixture.givenNoPriorActivity()
                .when(new OpenConversation(ID, OWNER, REF.agentId(), REF.instanceId(), "ctx-1", "Planning"))
                .expectEvents(opened);
    }

    @Test
    void aMessageToAnIdleConversationStartsItsTurnAtOnce() {
        fixture.given(opened)
                .when(new PostMessage(ID, OWNER, FIRST, HELLO))
                .expectEvents(firstPosted, firstStarted)
                .expectResultMessagePayload(2L);
    }

    @Test
    void aMessageSentWhileTheAgentAnswersWaits() {
        fixture.given(opened, firstPosted, firstStarted)
                .when(new PostMessage(ID, OWNER, SECOND, HOW))
                .expectEvents(secondPosted);
    }

    @Test
    void aMessagePastTheWaitingBoundIsRefusedAndOneFitsOnceATurnHasStarted() {
        fixture.given(opened, firstPosted, firstStarted, secondPosted)
                .when(new PostMessage(ID, OWNER, THIRD, BYE, 1))
                .expectException(refused(ErrorCode.RATE_LIMITED))
                .expectNoEvents();
        fixture.given(opened, firstPosted, firstStarted, secondPosted, new TurnEnded(REF, 1, TaskStatus.COMPLETED, REPLY, null),
                        new TurnStarted(REF, 2, SECOND, HOW))
                .when(new PostMessage(ID, OWNER, THIRD, BYE, 1))
                .expectEvents(new MessagePosted(REF, THIRD, 3, BYE));
    }

    @Test
    void theAnswerEndsTheTurnAndTheWaitingMessagesStartInOrder() {
        MessagePosted thirdPosted = new MessagePosted(REF, THIRD, 3, BYE);
        fixture.given(opened, firstPosted, firstStarted, secondPosted, thirdPosted)
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectEvents(new TurnEnded(REF, 1, TaskStatus.COMPLETED, REPLY, null), new TurnStarted(REF, 2, SECOND, HOW));
        fixture.given(opened, firstPosted, firstStarted, secondPosted, thirdPosted, new TurnEnded(REF, 1, TaskStatus.COMPLETED, REPLY, null),
                        new TurnStarted(REF, 2, SECOND, HOW))
                .when(new EndTurn(ID, 2, TaskStatus.INPUT_REQUIRED, REPLY, null))
                .expectEvents(new TurnEnded(REF, 2, TaskStatus.INPUT_REQUIRED, REPLY, null), new TurnStarted(REF, 3, THIRD, BYE));
    }

    @Test
    void theAnswerOfTheLastTurnLeavesTheConversationIdle() {
        fixture.given(opened, firstPosted, firstStarted)
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectEvents(new TurnEnded(REF, 1, TaskStatus.COMPLETED, REPLY, null));
    }

    @Test
    void aTurnCanFailAndTheNextMessageStillRuns() {
        fixture.given(opened, firstPosted, firstStarted, secondPosted)
                .when(new EndTurn(ID, 1, TaskStatus.FAILED, null, OFFLINE))
                .expectEvents(new TurnEnded(REF, 1, TaskStatus.FAILED, null, OFFLINE), new TurnStarted(REF, 2, SECOND, HOW));
    }

    @Test
    void theAgentCanAskForAuthorizationOrReject() {
        fixture.given(opened, firstPosted, firstStarted)
                .when(new EndTurn(ID, 1, TaskStatus.AUTH_REQUIRED, REPLY, null))
                .expectEvents(new TurnEnded(REF, 1, TaskStatus.AUTH_REQUIRED, REPLY, null));
        TaskMessage reason = TaskMessage.agent("no");
        fixture.given(opened, firstPosted, firstStarted)
                .when(new EndTurn(ID, 1, TaskStatus.REJECTED, reason, null))
                .expectEvents(new TurnEnded(REF, 1, TaskStatus.REJECTED, reason, null));
    }

    @Test
    void aTurnCannotEndAsRunningCanceledOrTimedOut() {
        for (TaskStatus status : List.of(TaskStatus.RUNNING, TaskStatus.CANCELED, TaskStatus.TIMEOUT, TaskStatus.QUEUED)) {
            fixture.given(opened, firstPosted, firstStarted)
                    .when(new EndTurn(ID, 1, status, REPLY, null))
                    .expectException(refused(ErrorCode.CONFLICT));
        }
    }

    @Test
    void anAnswerToAnotherTurnOrWithNoTurnRunningIsRefused() {
        fixture.given(opened, firstPosted, firstStarted)
                .when(new EndTurn(ID, 2, TaskStatus.COMPLETED, REPLY, null))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened)
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void cancelingTheRunningTurnStartsTheNextWaitingMessage() {
        fixture.given(opened, firstPosted, firstStarted, secondPosted)
                .when(new CancelTurn(ID, OWNER, "too slow"))
                .expectEvents(new TurnCanceled(REF, 1, "too slow"), new TurnStarted(REF, 2, SECOND, HOW))
                .expectResultMessagePayload(5L);
    }

    @Test
    void anAnswerForACanceledTurnIsRefused() {
        fixture.given(opened, firstPosted, firstStarted, new TurnCanceled(REF, 1, null))
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened, firstPosted, firstStarted, secondPosted, new TurnCanceled(REF, 1, null), new TurnStarted(REF, 2, SECOND, HOW))
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void thereIsNothingToCancelWithoutARunningTurn() {
        fixture.given(opened).when(new CancelTurn(ID, OWNER, null)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened, firstPosted, firstStarted, new TurnEnded(REF, 1, TaskStatus.COMPLETED, REPLY, null))
                .when(new CancelTurn(ID, OWNER, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void closingCancelsTheRunningTurnAndDropsTheWaitingMessages() {
        fixture.given(opened, firstPosted, firstStarted, secondPosted)
                .when(new CloseConversation(ID, OWNER))
                .expectEvents(new TurnCanceled(REF, 1, "The conversation was closed"), new ConversationClosed(REF, List.of(SECOND)));
        fixture.given(opened)
                .when(new CloseConversation(ID, OWNER))
                .expectEvents(new ConversationClosed(REF, List.of()));
    }

    @Test
    void closingAgainChangesNothing() {
        fixture.given(opened, new ConversationClosed(REF, List.of()))
                .when(new CloseConversation(ID, OWNER))
                .expectNoEvents()
                .expectResultMessagePayload(1L);
    }

    @Test
    void aClosedConversationTakesNoMessageAndNoCancel() {
        fixture.given(opened, new ConversationClosed(REF, List.of()))
                .when(new PostMessage(ID, OWNER, FIRST, HELLO))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened, new ConversationClosed(REF, List.of()))
                .when(new CancelTurn(ID, OWNER, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anAnswerAfterCloseIsRefused() {
        fixture.given(opened, firstPosted, firstStarted, new TurnCanceled(REF, 1, "The conversation was closed"), new ConversationClosed(REF, List.of()))
                .when(new EndTurn(ID, 1, TaskStatus.COMPLETED, REPLY, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void aRepeatedMessageIdIsRefused() {
        fixture.given(opened, firstPosted, firstStarted)
                .when(new PostMessage(ID, OWNER, FIRST, HELLO))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anotherOwnerFindsNoConversation() {
        OwnerId stranger = OwnerId.random();
        fixture.given(opened).when(new PostMessage(ID, stranger, FIRST, HELLO)).expectException(refused(ErrorCode.AGENT_NOT_FOUND));
        fixture.given(opened, firstPosted, firstStarted).when(new CancelTurn(ID, stranger, null))
                .expectException(refused(ErrorCode.AGENT_NOT_FOUND));
        fixture.given(opened).when(new CloseConversation(ID, stranger)).expectException(refused(ErrorCode.AGENT_NOT_FOUND));
    }
}
