package org.agentplatform.command.agent;

import static org.agentplatform.command.FixtureMatchers.refused;

import org.agentplatform.kernel.agent.AgentCommand.AgentLocation;
import org.agentplatform.kernel.agent.AgentCommand.ApplyAgentTemplate;
import org.agentplatform.kernel.agent.AgentCommand.ChangeAgentSettings;
import org.agentplatform.kernel.agent.AgentCommand.CheckAgentWritable;
import org.agentplatform.kernel.agent.AgentCommand.CreateAgent;
import org.agentplatform.kernel.agent.AgentCommand.DeleteAgent;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillInstalled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillToggled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillUninstalled;
import org.agentplatform.kernel.agent.AgentCommand.UpdateAgent;
import org.agentplatform.kernel.agent.AgentEvent.AgentCreated;
import org.agentplatform.kernel.agent.AgentEvent.AgentDeleted;
import org.agentplatform.kernel.agent.AgentEvent.AgentMcpToggled;
import org.agentplatform.kernel.agent.AgentEvent.AgentTemplateApplied;
import org.agentplatform.kernel.agent.AgentEvent.AgentUpdated;
import org.agentplatform.kernel.agent.AgentEvent.AgentVisibilityChanged;
import org.agentplatform.kernel.agent.AgentEvent.SkillInstalled;
import org.agentplatform.kernel.agent.AgentEvent.SkillToggled;
import org.agentplatform.kernel.agent.AgentEvent.SkillUninstalled;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AgentTest {

    private static final AgentId ID = AgentId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final InstanceId INSTANCE = InstanceId.random();
    private static final OperationId CREATE = OperationId.random();
    private static final OperationId OP = OperationId.random();

    private final AgentCreated created = new AgentCreated(ID, OWNER, INSTANCE, "helper", "echo", Visibility.PRIVATE, false, CREATE);
    private FixtureConfiguration<Agent> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Agent.class);
    }

    @Test
    void aCreatedAgentIsPrivateWithoutMcp() {
        fixture.givenNoPriorActivity()
                .when(new CreateAgent(ID, OWNER, INSTANCE, "helper", "echo", CREATE))
                .expectEvents(created);
    }

    @Test
    void theOwnerChangesVisibilityAndMcp() {
        fixture.given(created)
                .when(new ChangeAgentSettings(ID, OWNER, Visibility.PUBLIC, true))
                .expectEvents(new AgentVisibilityChanged(ID, Visibility.PUBLIC), new AgentMcpToggled(ID, true));
    }

    @Test
    void unchangedSettingsApplyNothing() {
        fixture.given(created).when(new ChangeAgentSettings(ID, OWNER, Visibility.PRIVATE, null)).expectNoEvents();
    }

    @Test
    void onlyTheOwnerMayChangeIt() {
        fixture.given(created, new AgentVisibilityChanged(ID, Visibility.PUBLIC))
                .when(new ChangeAgentSettings(ID, OwnerId.random(), Visibility.PRIVATE, null))
                .expectException(refused(ErrorCode.FORBIDDEN));
        fixture.given(created).when(new CheckAgentWritable(ID, OwnerId.random())).expectException(refused(ErrorCode.FORBIDDEN));
    }

    @Test
    void theOwnerLearnsWhereItRuns() {
        fixture.given(created).when(new CheckAgentWritable(ID, OWNER)).expectResultMessagePayload(new AgentLocation(ID, INSTANCE));
    }

    @Test
    void runtimeChangesAreReflectedOnce() {
        fixture.given(created).when(new UpdateAgent(ID, "helper2", "echo", OP))
                .expectEvents(new AgentUpdated(ID, "helper2", "echo", OP));
        fixture.given(created, new AgentUpdated(ID, "helper2", "echo", OP)).when(new UpdateAgent(ID, "helper2", "echo", OP))
                .expectNoEvents();
        fixture.given(created).when(new ApplyAgentTemplate(ID, "coder", "echo", OP))
                .expectEvents(new AgentTemplateApplied(ID, "coder", "echo", OP));
    }

    @Test
    void skillsAreInstalledToggledAndUninstalled() {
        fixture.given(created).when(new RecordSkillInstalled(ID, "review", "1.0", true, OP))
                .expectEvents(new SkillInstalled(ID, "review", "1.0", true, OP));
        OperationId toggle = OperationId.random();
        fixture.given(created, new SkillInstalled(ID, "review", "1.0", true, OP)).when(new RecordSkillToggled(ID, "review", false, toggle))
                .expectEvents(new SkillToggled(ID, "review", false, toggle));
        OperationId remove = OperationId.random();
        fixture.given(created, new SkillInstalled(ID, "review", "1.0", true, OP)).when(new RecordSkillUninstalled(ID, "review", remove))
                .expectEvents(new SkillUninstalled(ID, "review", remove));
        fixture.given(created).when(new RecordSkillUninstalled(ID, "never-installed", remove)).expectNoEvents();
    }

    @Test
    void aDeletedAgentIsGone() {
        fixture.given(created).when(new DeleteAgent(ID, OP)).expectEvents(new AgentDeleted(ID, OP));
        fixture.given(created, new AgentDeleted(ID, OP)).when(new UpdateAgent(ID, "x", "echo", OperationId.random()))
                .expectException(refused(ErrorCode.AGENT_NOT_FOUND));
        fixture.given(created, new AgentDeleted(ID, OP)).when(new ChangeAgentSettings(ID, OWNER, Visibility.PUBLIC, null))
                .expectException(refused(ErrorCode.AGENT_NOT_FOUND));
    }
}
