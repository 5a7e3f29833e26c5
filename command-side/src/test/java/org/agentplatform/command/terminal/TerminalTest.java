package org.agentplatform.command.terminal;

import static org.agentplatform.command.FixtureMatchers.refused;

import java.time.Duration;
import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalCommand.AttachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;
import org.agentplatform.kernel.terminal.TerminalCommand.DetachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.GrantTerminalTicket;
import org.agentplatform.kernel.terminal.TerminalCommand.OpenTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalAttached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalDetached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalEnded;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalOpened;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalTicketGranted;
import org.agentplatform.kernel.terminal.TerminalId;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TerminalTest {

    private static final TerminalId ID = TerminalId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final InstanceId INSTANCE = InstanceId.random();
    private static final AgentId AGENT = AgentId.random();
    private static final Duration IDLE = Duration.ofMinutes(10);

    private AggregateTestFixture<Terminal> fixture;
    private Instant now;
    private TerminalOpened opened;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Terminal.class);
        now = fixture.currentTime();
        opened = new TerminalOpened(ID, OWNER, INSTANCE, AGENT, null, "jti-1", now.plusSeconds(60));
    }

    @Test
    void anOpenedTerminalEndsWhenNobodyAttachesWithinTheIdlePeriod() {
        fixture.givenNoPriorActivity()
                .when(new OpenTerminal(ID, OWNER, INSTANCE, AGENT, null, "jti-1", now.plusSeconds(60), now.plus(IDLE)))
                .expectEvents(opened)
                .expectScheduledDeadlineWithName(IDLE, Terminal.IDLE);
        fixture.given(opened).whenTimeElapses(IDLE).expectEvents(new TerminalEnded(ID, OWNER, INSTANCE, TerminalEnd.IDLE, null));
    }

    @Test
    void aTicketIsRedeemedOnceAndAnAttachedTerminalDoesNotIdle() {
        fixture.given(opened)
                .when(new AttachTerminal(ID, "jti-1", now))
                .expectEvents(new TerminalAttached(ID, OWNER, INSTANCE, "jti-1", 1))
                .expectResultMessagePayload(new Attachment(ID, OWNER, INSTANCE, AGENT, null, 1))
                .expectNoScheduledDeadlines();
        fixture.given(opened, new TerminalAttached(ID, OWNER, INSTANCE, "jti-1", 1))
                .when(new AttachTerminal(ID, "jti-1", now))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anExpiredOrUnknownTicketIsRefused() {
        fixture.given(opened).when(new AttachTerminal(ID, "jti-1", now.plusSeconds(60))).expectException(refused(ErrorCode.FORBIDDEN));
        fixture.given(opened).when(new AttachTerminal(ID, "jti-other", now)).expectException(refused(ErrorCode.FORBIDDEN));
    }

    @Test
    void aResumeGrantsAFurtherTicketToTheOwnerOnly() {
        TerminalAttached attached = new TerminalAttached(ID, OWNER, INSTANCE, "jti-1", 1);
        TerminalDetached detached = new TerminalDetached(ID, OWNER, INSTANCE, 1);
        fixture.given(opened, attached, detached)
                .when(new GrantTerminalTicket(ID, OWNER, INSTANCE, "jti-2", now.plusSeconds(60)))
                .expectEvents(new TerminalTicketGranted(ID, OWNER, INSTANCE, "jti-2", now.plusSeconds(60)));
        fixture.given(opened, attached, detached, new TerminalTicketGranted(ID, OWNER, INSTANCE, "jti-2", now.plusSeconds(60)))
                .when(new AttachTerminal(ID, "jti-2", now))
                .expectEvents(new TerminalAttached(ID, OWNER, INSTANCE, "jti-2", 2))
                .expectResultMessagePayload(new Attachment(ID, OWNER, INSTANCE, AGENT, null, 2));
        fixture.given(opened).when(new GrantTerminalTicket(ID, OwnerId.random(), INSTANCE, "jti-2", now.plusSeconds(60)))
                .expectException(refused(ErrorCode.NOT_FOUND));
        fixture.given(opened).when(new GrantTerminalTicket(ID, OWNER, InstanceId.random(), "jti-2", now.plusSeconds(60)))
                .expectException(refused(ErrorCode.NOT_FOUND));
    }

    @Test
    void onlyTheCurrentConnectionsDetachStartsTheIdlePeriod() {
        TerminalAttached first = new TerminalAttached(ID, OWNER, INSTANCE, "jti-1", 1);
        TerminalTicketGranted second = new TerminalTicketGranted(ID, OWNER, INSTANCE, "jti-2", now.plusSeconds(60));
        TerminalAttached replaced = new TerminalAttached(ID, OWNER, INSTANCE, "jti-2", 2);
        fixture.given(opened, first, second, replaced)
                .when(new DetachTerminal(ID, 1, now.plus(IDLE)))
                .expectNoEvents()
                .expectNoScheduledDeadlines();
        fixture.given(opened, first, second, replaced)
                .when(new DetachTerminal(ID, 2, now.plus(IDLE)))
                .expectEvents(new TerminalDetached(ID, OWNER, INSTANCE, 2))
                .expectScheduledDeadlineWithName(IDLE, Terminal.IDLE);
    }

    @Test
    void anEndedTerminalTakesNoTicketAndEndsOnce() {
        TerminalEnded exited = new TerminalEnded(ID, OWNER, INSTANCE, TerminalEnd.SHELL_EXITED, 3);
        fixture.given(opened).when(new EndTerminal(ID, null, TerminalEnd.SHELL_EXITED, 3)).expectEvents(exited);
        fixture.given(opened, exited).when(new EndTerminal(ID, OWNER, TerminalEnd.CLOSED, null)).expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened, exited).when(new GrantTerminalTicket(ID, OWNER, INSTANCE, "jti-2", now.plusSeconds(60)))
                .expectException(refused(ErrorCode.CONFLICT));
        fixture.given(opened, exited).when(new AttachTerminal(ID, "jti-1", now)).expectException(refused(ErrorCode.NOT_FOUND));
        fixture.given(opened).when(new EndTerminal(ID, OwnerId.random(), TerminalEnd.CLOSED, null)).expectException(refused(ErrorCode.NOT_FOUND));
    }
}
