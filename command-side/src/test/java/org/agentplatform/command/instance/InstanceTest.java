package org.agentplatform.command.instance;

import static org.agentplatform.command.FixtureMatchers.refused;
import static org.assertj.core.api.Assertions.assertThat;

import org.agentplatform.command.FixtureMatchers;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceDeployment;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceRestart;
import org.agentplatform.kernel.instance.InstanceCommand.DeployInstance;
import org.agentplatform.kernel.instance.InstanceCommand.DestroyInstance;
import org.agentplatform.kernel.instance.InstanceCommand.FailInstance;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceCommand.RestartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StopInstance;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceFailed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestarted;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStarted;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InstanceTest {

    private static final InstanceId ID = InstanceId.random();
    private static final OwnerId OWNER = OwnerId.random();
    private static final OwnerId STRANGER = OwnerId.random();

    private final InstanceDeployRequested requested = new InstanceDeployRequested(ID, OWNER, "box", "local", "local", InstanceKind.LINUX);
    private final InstanceDeployed deployed = new InstanceDeployed(ID, OWNER, "local", InstanceKind.LINUX, 1);
    private final InstanceStopped stopped = new InstanceStopped(ID, OWNER, "local", 1);

    private FixtureConfiguration<Instance> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Instance.class);
    }

    @Test
    void deployRequestsADeployment() {
        fixture.givenNoPriorActivity()
                .when(new DeployInstance(ID, OWNER, "box", "local", "local", InstanceKind.LINUX))
                .expectEvents(requested);
    }

    @Test
    void completedDeploymentRunsAtEpochOne() {
        fixture.given(requested).when(new CompleteInstanceDeployment(ID)).expectEvents(deployed);
    }

    @Test
    void deploymentCompletesOnce() {
        fixture.given(requested, deployed).when(new CompleteInstanceDeployment(ID)).expectException(CommandRefused.class);
    }

    @Test
    void stopOnlyARunningInstance() {
        fixture.given(requested, deployed).when(new StopInstance(ID, OWNER)).expectEvents(stopped).expectResultMessagePayload(2L);
        fixture.given(requested, deployed, stopped).when(new StopInstance(ID, OWNER)).expectException(CommandRefused.class);
        fixture.given(requested).when(new StopInstance(ID, OWNER)).expectException(CommandRefused.class);
    }

    @Test
    void startAStoppedInstanceAtTheNextEpoch() {
        fixture.given(requested, deployed, stopped).when(new StartInstance(ID, OWNER))
                .expectEvents(new InstanceStarted(ID, OWNER, "local", InstanceKind.LINUX, 2));
    }

    @Test
    void startARunningInstanceIsRefused() {
        fixture.given(requested, deployed).when(new StartInstance(ID, OWNER))
                .expectException(CommandRefused.class).expectNoEvents();
    }

    @Test
    void restartGoesThroughRestartingToTheNextEpoch() {
        fixture.given(requested, deployed).when(new RestartInstance(ID, OWNER))
                .expectEvents(new InstanceRestartRequested(ID, OWNER, "local", InstanceKind.LINUX));
        fixture.given(requested, deployed, new InstanceRestartRequested(ID, OWNER, "local", InstanceKind.LINUX))
                .when(new CompleteInstanceRestart(ID))
                .expectEvents(new InstanceRestarted(ID, OWNER, "local", InstanceKind.LINUX, 2));
    }

    @Test
    void restartIsRefusedWhileStopped() {
        fixture.given(requested, deployed, stopped).when(new RestartInstance(ID, OWNER)).expectException(CommandRefused.class);
    }

    @Test
    void aFailedInstanceCanBeRestarted() {
        fixture.given(requested, new InstanceFailed(ID, OWNER, "no capacity")).when(new RestartInstance(ID, OWNER))
                .expectEvents(new InstanceRestartRequested(ID, OWNER, "local", InstanceKind.LINUX));
    }

    @Test
    void failOnlyWhereTheLifecycleAllowsIt() {
        fixture.given(requested).when(new FailInstance(ID, "no capacity")).expectEvents(new InstanceFailed(ID, OWNER, "no capacity"));
        fixture.given(requested, deployed, stopped).when(new FailInstance(ID, "late")).expectException(CommandRefused.class);
    }

    @Test
    void destroyFromAnyStateButDestroyed() {
        fixture.given(requested, deployed, stopped).when(new DestroyInstance(ID, OWNER))
                .expectEvents(new InstanceDestroyed(ID, OWNER, "local"));
        fixture.given(requested, new InstanceDestroyed(ID, OWNER, "local")).when(new DestroyInstance(ID, OWNER))
                .expectException(CommandRefused.class);
    }

    @Test
    void aDestroyedInstanceCannotBeStarted() {
        fixture.given(requested, deployed, new InstanceDestroyed(ID, OWNER, "local")).when(new StartInstance(ID, OWNER))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void anotherOwnersInstanceIsNotFound() {
        fixture.given(requested, deployed).when(new StopInstance(ID, STRANGER))
                .expectException(refused(ErrorCode.NOT_FOUND))
                .expectNoEvents();
        fixture.given(requested, deployed).when(new CheckInstanceReadiness(ID, STRANGER))
                .expectException(refused(ErrorCode.NOT_FOUND));
    }

    @Test
    void readinessTellsStatusAndEpochWithoutEvents() {
        fixture.given(requested, deployed).when(new CheckInstanceReadiness(ID, OWNER))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(FixtureMatchers.<Readiness>matching("running at epoch 1",
                        readiness -> readiness.status() == InstanceStatus.RUNNING && readiness.runtimeEpoch() == 1));
    }

    @Test
    void readinessRefusesAGoneInstance() {
        fixture.given(requested, new InstanceFailed(ID, OWNER, "broken")).when(new CheckInstanceReadiness(ID, null))
                .expectException(refused(ErrorCode.CONFLICT));
    }

    @Test
    void statusTableAllowsOnlyTheLifecycle() {
        assertThat(InstanceStatus.DEPLOYING.canBecome(InstanceStatus.RUNNING)).isTrue();
        assertThat(InstanceStatus.STOPPED.canBecome(InstanceStatus.RESTARTING)).isFalse();
        assertThat(InstanceStatus.DESTROYED.canBecome(InstanceStatus.RUNNING)).isFalse();
        for (InstanceStatus status : InstanceStatus.values()) {
            assertThat(status.canBecome(InstanceStatus.DESTROYED)).isEqualTo(status != InstanceStatus.DESTROYED);
        }
    }
}
