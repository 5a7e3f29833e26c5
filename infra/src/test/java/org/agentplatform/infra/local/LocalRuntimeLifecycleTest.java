package org.agentplatform.infra.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.agentplatform.infra.local.LocalProvider;
import org.agentplatform.infra.support.PlatformTest;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The local runtime's lifecycle steps as the instance-lifecycle processor hands them over: off its thread, so a start and
 * the stop that followed it can reach the runtime in either order. Whatever the order, the runtime ends where the
 * instance's events left it.
 */
@PlatformTest
class LocalRuntimeLifecycleTest {

    @Autowired
    LocalRuntime runtime;

    @Autowired
    JdbcTemplate jdbc;

    private InstanceId instance;

    @BeforeEach
    void aDeployedInstance() {
        instance = new InstanceId(UUID.randomUUID());
        runtime.deploy(instance, new OwnerId(UUID.randomUUID()), LocalProvider.ID, LocalProvider.REGION, InstanceKind.LINUX)
                .toCompletableFuture().join();
    }

    @Test
    void aStopThatOvertakesTheActivationOfItsEpochIsNotUndoneByIt() {
        runtime.stop(instance, 1).toCompletableFuture().join();
        runtime.activate(instance, 1).toCompletableFuture().join();

        assertThat(state()).containsEntry("state", "stopped").containsEntry("runtime_epoch", 1L);
        assertThat(runtime.runsAt(instance, 1)).as("a request that read the instance running at epoch 1").isFalse();

        runtime.activate(instance, 2).toCompletableFuture().join();
        assertThat(state()).containsEntry("state", "running").containsEntry("runtime_epoch", 2L);
    }

    @Test
    void inTheirOrderAStartAndItsStopLeaveTheRuntimeStoppedAndAStaleStopChangesNothing() {
        runtime.activate(instance, 1).toCompletableFuture().join();
        runtime.stop(instance, 1).toCompletableFuture().join();
        assertThat(state()).containsEntry("state", "stopped").containsEntry("runtime_epoch", 1L);

        runtime.activate(instance, 2).toCompletableFuture().join();
        runtime.stop(instance, 1).toCompletableFuture().join();
        assertThat(state()).containsEntry("state", "running").containsEntry("runtime_epoch", 2L);
    }

    private Map<String, Object> state() {
        return jdbc.queryForMap("SELECT state, runtime_epoch FROM local_instance WHERE instance_id = ?", instance.value());
    }
}
