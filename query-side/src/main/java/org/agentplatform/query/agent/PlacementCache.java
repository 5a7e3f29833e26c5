package org.agentplatform.query.agent;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.query.feed.ChangeFeed;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * The agents' placements ({@link AgentOnInstance}) as last read, for the requests that give an agent work: every task
 * create, invoke and conversation message asks whether the agent exists, whom it belongs to and whether its instance
 * serves, and the answer rarely changes. On this node an entry goes when the agent's or its instance's projection
 * changes its row ({@link #changing}, inside the projection's transaction), and no read of it is kept until that
 * transaction has ended, so a caller that saw the change in any read model finds it here too. Other nodes' entries go
 * when the projection's notification reaches them, before the waits on that change are woken. All go when the feed
 * reconnects (notifications sent meanwhile are lost), and none is kept longer than {@code maxAge}. A read that a
 * change overtook (it began before the change and ended after it) is answered but not kept.
 */
final class PlacementCache implements PlacementChanges, AutoCloseable {

    /** Past this many entries (or changed keys remembered) the cache starts over rather than grow. */
    static final int MAX_ENTRIES = 10_000;

    private volatile long maxAgeNanos;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();
    /** The agents kept, by their instance (an instance's change drops its agents' entries). */
    private final Map<UUID, Set<UUID>> onInstance = new ConcurrentHashMap<>();
    /** Changes seen, counted: a read remembers the count it began at. */
    private final AtomicLong changes = new AtomicLong();
    /** The count at each key's latest change (an agent's or an instance's id), since {@link #forgottenAt}. */
    private final Map<UUID, Long> changedAt = new ConcurrentHashMap<>();
    /** Keys whose change is in a transaction not ended yet, with how many such transactions: no read of them is kept. */
    private final Map<UUID, Integer> unsettled = new ConcurrentHashMap<>();
    /** The count when everything was last forgotten (a reconnect, or {@link #changedAt} grown too large). */
    private volatile long forgottenAt;
    private final Disposable watching;

    private record Entry(AgentOnInstance placement, long readAtNanos) {
    }

    PlacementCache(ChangeFeed feed, String channel, Duration maxAge) {
        this.maxAgeNanos = maxAge.toNanos();
        this.watching = feed.every(channel).subscribe(change -> {
            if (ChangeFeed.isResync(change)) {
                forgetEverything();
            } else {
                changed(ChangeFeed.keyOf(change.payload()));
            }
        }, failure -> {
            // no longer told of changes: keep nothing from now on
            maxAgeNanos = 0;
            forgetEverything();
        });
    }

    /** The agent's placement from the cache, else from {@code read} (kept unless a change overtook it). */
    Mono<AgentOnInstance> get(AgentId agent, Supplier<Mono<AgentOnInstance>> read) {
        Entry entry = entries.get(agent.value());
        if (entry != null && System.nanoTime() - entry.readAtNanos() < maxAgeNanos) {
            return Mono.just(entry.placement());
        }
        return Mono.defer(() -> {
            long began = changes.get();
            long readAt = System.nanoTime();
            return read.get().doOnNext(placement -> keep(agent, placement, began, readAt));
        });
    }

    private void keep(AgentId agent, AgentOnInstance placement, long began, long readAt) {
        if (overtaken(agent.value(), began) || overtaken(placement.agent().instanceId().value(), began)) {
            return;
        }
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
            onInstance.clear();
        }
        onInstance.computeIfAbsent(placement.agent().instanceId().value(), any -> ConcurrentHashMap.newKeySet()).add(agent.value());
        entries.put(agent.value(), new Entry(placement, readAt));
        // a change that came while the entry was put is seen by the check again
        if (overtaken(agent.value(), began) || overtaken(placement.agent().instanceId().value(), began)) {
            entries.remove(agent.value());
        }
    }

    private boolean overtaken(UUID key, long began) {
        Long changed = changedAt.get(key);
        return forgottenAt > began || (changed != null && changed > began) || unsettled.containsKey(key);
    }

    @Override
    public void changing(UUID key) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            changed(key.toString());
            return;
        }
        unsettled.merge(key, 1, Integer::sum);
        changed(key.toString());
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                unsettled.computeIfPresent(key, (any, count) -> count == 1 ? null : count - 1);
                changed(key.toString());
            }
        });
    }

    private void changed(String key) {
        UUID id;
        try {
            id = UUID.fromString(key);
        } catch (IllegalArgumentException notAnId) {
            return; // no agent or instance is keyed so
        }
        long count = changes.incrementAndGet();
        if (changedAt.size() >= MAX_ENTRIES) {
            forgetEverything();
        } else {
            changedAt.put(id, count);
        }
        entries.remove(id);
        Set<UUID> agents = onInstance.remove(id);
        if (agents != null) {
            agents.forEach(entries::remove);
        }
    }

    private void forgetEverything() {
        forgottenAt = changes.incrementAndGet();
        changedAt.clear();
        entries.clear();
        onInstance.clear();
    }

    @Override
    public void close() {
        watching.dispose();
    }
}
