package org.agentplatform.command.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.agentplatform.command.NewestFirstPool;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationCommand.ConfirmOperationCancelled;
import org.agentplatform.kernel.operation.OperationEvent.OperationCancelRequested;
import org.agentplatform.kernel.operation.OperationEvent.OperationStarted;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationStatus;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.junit.jupiter.api.Test;

/** An operation's call and its cancel reach the runtime in that order, however the pool orders the work handed to it. */
class OperationDispatcherTest {

    private final SimpleCommandBus bus = SimpleCommandBus.builder().build();
    private final List<Object> sent = new ArrayList<>();
    private final HeldCalls runtime = new HeldCalls();
    private final NewestFirstPool pool = new NewestFirstPool();
    private final OperationDispatcher dispatcher = new OperationDispatcher(DefaultCommandGateway.builder().commandBus(bus).build(),
            runtime, instance -> List.of(), pool, Clock.systemUTC(), Duration.ofSeconds(30));

    private final OperationId operation = OperationId.random();
    private final InstanceId instance = InstanceId.random();

    @Test
    void aCancelHandedOnRightAfterItsCallReachesTheRuntimeAfterItAndConfirmsTheCancel() {
        bus.subscribe(ConfirmOperationCancelled.class.getName(), command -> {
            sent.add(command.getPayload());
            return null;
        });

        dispatcher.on(new OperationStarted(operation, instance, OwnerId.random(), RuntimeMethod.CRON_LIST, Map.of(), 1, Instant.now()));
        dispatcher.on(new OperationCancelRequested(operation, instance, OperationStatus.RUNNING, "cancel-1", "key:test", null));
        pool.runAll();

        assertThat(runtime.seen).as("what the runtime was asked, in order").containsExactly("invoke", "cancel");
        assertThat(sent).as("the runtime dropped the call: the cancel is confirmed").containsExactly(new ConfirmOperationCancelled(operation));
    }

    @Test
    void aCancelOfAnOperationWhoseCallThisNodeDidNotHandOnIsPassedOnAtOnce() {
        dispatcher.on(new OperationCancelRequested(operation, instance, OperationStatus.RUNNING, "cancel-1", "key:test", null));
        pool.runAll();

        assertThat(runtime.seen).containsExactly("cancel");
    }

    /** A runtime as the port describes it: a call waits for its answer; a cancel drops a call it holds, and only such a call. */
    private static final class HeldCalls implements InstanceRuntime {

        final List<String> seen = new ArrayList<>();
        final Map<OperationId, CompletableFuture<RuntimeOutcome>> held = new ConcurrentHashMap<>();

        @Override
        public CompletionStage<RuntimeOutcome> invoke(RuntimeCall call) {
            seen.add("invoke");
            CompletableFuture<RuntimeOutcome> answer = new CompletableFuture<>();
            held.put(call.operationId(), answer);
            return answer;
        }

        @Override
        public boolean cancel(InstanceId instanceId, OperationId operationId) {
            seen.add("cancel");
            CompletableFuture<RuntimeOutcome> call = held.remove(operationId);
            return call != null && call.complete(new RuntimeOutcome.Aborted());
        }
    }
}
