package org.agentplatform.api.quota;

/**
 * Port: whether the stages every owner's tasks pass through in one order (handed to the runtime, projected for reads and
 * streams) are behind the event store by more than they catch up on at once, that is, whether this node is saturated,
 * and how far behind they are. {@link FairShare} keeps the node's task creates below what saturates it and shares them
 * between owners.
 */
public interface Congestion {

    /** A node that never says it is saturated: no owner is ever asked to wait for its share. */
    Congestion NEVER = new Congestion() {
        @Override
        public boolean congested() {
            return false;
        }

        @Override
        public long lag() {
            return 0;
        }
    };

    boolean congested();

    /** How far behind the store the slowest of the stages was when last looked at, in events. */
    long lag();
}
