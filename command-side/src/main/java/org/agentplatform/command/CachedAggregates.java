package org.agentplatform.command;

import org.axonframework.common.caching.WeakReferenceCache;
import org.axonframework.config.AggregateConfigurer;

/**
 * Aggregates that take several commands in quick succession (a task's start and answer, a delivery's
 * attempts) stay in memory between them instead of being rebuilt from their events for each. Entries
 * are weakly held (the collector frees them under pressure) and dropped when a command's unit of work
 * rolls back. Another node that wrote the same aggregate meanwhile makes this node's next append fail
 * on the sequence number (a {@code ConcurrencyException}, which also evicts the entry); callers retry
 * it ({@code Commands} for the API, {@link ProcessCommands} for processes).
 */
public final class CachedAggregates {

    private CachedAggregates() {
    }

    public static <T> AggregateConfigurer<T> of(Class<T> aggregate) {
        return AggregateConfigurer.defaultConfiguration(aggregate).configureCache(config -> new WeakReferenceCache());
    }
}
