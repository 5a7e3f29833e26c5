package org.agentplatform.api.quota;

/**
 * Port: whether the stages every owner's tasks pass through in one order (handed to the runtime, projected for reads and
 * streams) are behind the event store by more than they catch up on at once, that is, whether this node is saturated.
 * While it is, an owner creating tasks faster than its share is asked to wait ({@link FairShare}).
 */
public interface Congestion {

    /** A node that never says it is saturated: no owner is ever asked to wait for its share. */
    Congestion NEVER = () -> false;

    boolean congested();
}
