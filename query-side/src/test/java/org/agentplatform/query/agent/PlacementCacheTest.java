package org.agentplatform.query.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.agentplatform.query.feed.ChangeFeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * When a kept placement is answered and when it is read again: after a change of the agent or of its instance, after the
 * feed reconnects, past its age, while a projection's transaction changing it has not ended, and not at all when a
 * change overtook the read that fetched it.
 */
class PlacementCacheTest {

    private static final String CHANNEL = "read_models";

    private final AgentId agent = new AgentId(UUID.randomUUID());
    private final InstanceId instance = new InstanceId(UUID.randomUUID());
    private final Sinks.Many<ChangeFeed.Change> notifications = Sinks.many().multicast().directBestEffort();
    private final AtomicInteger reads = new AtomicInteger();
    private PlacementCache cache = new PlacementCache(new Feed(), CHANNEL, Duration.ofMinutes(1));

    @AfterEach
    void closed() {
        cache.close();
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.clearSynchronization();
        }
    }

    @Test
    void aKeptPlacementIsAnsweredUntilTheAgentOrItsInstanceChanges() {
        assertThat(placement()).isNotNull();
        assertThat(placement()).isNotNull();
        assertThat(reads).hasValue(1);
        notify(UUID.randomUUID() + "");
        placement();
        assertThat(reads).as("another row's change leaves it").hasValue(1);
        notify(agent.value().toString());
        placement();
        assertThat(reads).as("the agent's change drops it").hasValue(2);
        notify(instance.value() + ":detail");
        placement();
        assertThat(reads).as("its instance's change drops it").hasValue(3);
        placement();
        assertThat(reads).hasValue(3);
        notify(":" + ChangeFeed.RESYNC);
        placement();
        assertThat(reads).as("a reconnect drops everything").hasValue(4);
    }

    @Test
    void aReadThatAChangeOvertookIsAnsweredButNotKept() {
        Sinks.One<AgentOnInstance> slow = Sinks.one();
        AgentOnInstance[] answered = new AgentOnInstance[1];
        cache.get(agent, () -> {
            reads.incrementAndGet();
            return slow.asMono();
        }).subscribe(found -> answered[0] = found);
        notify(instance.value().toString());
        slow.tryEmitValue(read());
        assertThat(answered[0]).isNotNull();
        placement();
        assertThat(reads).as("read again: the first read may predate the change").hasValue(2);
        placement();
        assertThat(reads).hasValue(2);
    }

    @Test
    void noReadIsKeptWhileAChangingTransactionIsOpenAndItsEndDropsWhatWasKept() {
        placement();
        TransactionSynchronizationManager.initSynchronization();
        cache.changing(instance.value());
        placement();
        placement();
        assertThat(reads).as("dropped at once, and not kept while the change is uncommitted").hasValue(3);
        List<TransactionSynchronization> ending = TransactionSynchronizationManager.getSynchronizations();
        TransactionSynchronizationManager.clearSynchronization();
        ending.forEach(synchronization -> synchronization.afterCompletion(TransactionSynchronization.STATUS_COMMITTED));
        placement();
        placement();
        assertThat(reads).as("kept again once the transaction ended").hasValue(4);
    }

    @Test
    void noPlacementIsAnsweredPastItsAge() {
        cache.close();
        cache = new PlacementCache(new Feed(), CHANNEL, Duration.ZERO);
        placement();
        placement();
        assertThat(reads).hasValue(2);
    }

    private AgentOnInstance placement() {
        return cache.get(agent, () -> Mono.fromSupplier(() -> {
            reads.incrementAndGet();
            return read();
        })).block();
    }

    private AgentOnInstance read() {
        return new AgentOnInstance(new AgentRecord(agent, new OwnerId(UUID.randomUUID()), instance, "placed", "echo", null, Visibility.PRIVATE,
                false, List.of(), 1, Instant.EPOCH, Instant.EPOCH), InstanceStatus.RUNNING, 1);
    }

    private void notify(String payload) {
        notifications.tryEmitNext(new ChangeFeed.Change(CHANNEL, payload));
    }

    private final class Feed implements ChangeFeed {

        @Override
        public Flux<Change> on(String channel, String key) {
            return Flux.never();
        }

        @Override
        public Flux<Change> every(String channel) {
            return notifications.asFlux().filter(change -> change.channel().equals(channel));
        }
    }
}
