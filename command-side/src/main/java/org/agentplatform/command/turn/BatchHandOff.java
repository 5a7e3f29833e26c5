package org.agentplatform.command.turn;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns a processor's batch of events starts, handed to the runtime together as the batch's unit of work prepares its
 * commit ({@link AgentRuntime#startTurns}): one call for the batch rather than one per event, so that a dispatcher keeps up
 * with a flood of creates. The hand-off comes before the commit that moves the processor's token past the events, so no
 * turn is passed before the runtime has it; one that fails is the recovery's (the stream goes on). Outside a unit of work
 * (a handler called directly) a turn is handed over at once.
 */
public final class BatchHandOff {

    private static final Logger log = LoggerFactory.getLogger(BatchHandOff.class);
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final AgentRuntime runtime;
    /** The key of the turns held in a batch's unit of work: one per hand-off, so two dispatchers hold apart. */
    private final String key = BatchHandOff.class.getName() + "#" + INSTANCES.incrementAndGet();

    public BatchHandOff(AgentRuntime runtime) {
        this.runtime = runtime;
    }

    /** Hands {@code turn} over with the rest of the batch handled now, in the order they were given. */
    public void add(AgentTurn turn) {
        if (!CurrentUnitOfWork.isStarted()) {
            handOver(List.of(turn));
            return;
        }
        UnitOfWork<?> batch = CurrentUnitOfWork.get().root();
        batch.<List<AgentTurn>>getOrComputeResource(key, any -> {
            List<AgentTurn> held = new ArrayList<>();
            batch.onPrepareCommit(committing -> handOver(held));
            return held;
        }).add(turn);
    }

    private void handOver(List<AgentTurn> turns) {
        try {
            runtime.startTurns(turns);
        } catch (RuntimeException failure) {
            AgentTurn first = turns.getFirst();
            log.atWarn().addKeyValue("turns", turns.size()).addKeyValue(first.kind().wireName() + "_id", first.channel().toString())
                    .setCause(failure).log("the turns could not be handed to the runtime; the recovery sweep hands them over again");
        }
    }
}
