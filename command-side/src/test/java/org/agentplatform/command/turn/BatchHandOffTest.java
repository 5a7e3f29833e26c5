package org.agentplatform.command.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.task.TaskMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.junit.jupiter.api.Test;

/** The turns a processor's batch starts go to the runtime in one call, as the batch commits, and never fail the batch. */
class BatchHandOffTest {

    /** What the runtime was handed, call by call. */
    private final List<List<AgentTurn>> calls = new CopyOnWriteArrayList<>();
    private final BatchHandOff handOff = new BatchHandOff(new RecordingRuntime());

    @Test
    void theTurnsOfABatchGoOverTogetherInTheirOrderWhenItCommits() {
        AgentTurn first = turn(1);
        AgentTurn second = turn(2);
        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("batch"));

        handOff.add(first);
        handOff.add(second);
        assertThat(calls).as("handed over before the batch commits").isEmpty();
        batch.commit();

        assertThat(calls).containsExactly(List.of(first, second));
    }

    @Test
    void aBatchRolledBackHandsNothingOver() {
        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("batch"));

        handOff.add(turn(1));
        batch.rollback();

        assertThat(calls).isEmpty();
    }

    @Test
    void aTurnHandledOutsideAUnitOfWorkGoesOverAtOnce() {
        AgentTurn turn = turn(1);

        handOff.add(turn);

        assertThat(calls).containsExactly(List.of(turn));
    }

    @Test
    void aHandOffThatFailsLeavesTheTurnsToTheRecoveryAndTheBatchCommits() {
        BatchHandOff failing = new BatchHandOff(new RecordingRuntime() {
            @Override
            public void startTurns(List<AgentTurn> turns) {
                throw new IllegalStateException("the runtime's database went away");
            }
        });
        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(GenericEventMessage.asEventMessage("batch"));

        failing.add(turn(1));
        batch.commit();

        assertThat(batch.isRolledBack()).isFalse();
    }

    private static AgentTurn turn(long window) {
        return new AgentTurn(AgentTurn.Kind.TASK, UUID.randomUUID(), new OwnerId(UUID.randomUUID()), new AgentId(UUID.randomUUID()),
                new InstanceId(UUID.randomUUID()), "ctx", 0, 1, window, TaskMessage.user("hello", List.of()), false);
    }

    /** A runtime that records what it is handed. */
    private class RecordingRuntime implements AgentRuntime {

        @Override
        public void startTurn(AgentTurn turn) {
            calls.add(List.of(turn));
        }

        @Override
        public void startTurns(List<AgentTurn> turns) {
            calls.add(List.copyOf(turns));
        }

        @Override
        public void stopTurns(UUID channel) {
        }

        @Override
        public void stopTurn(UUID channel, int turn) {
        }
    }
}
