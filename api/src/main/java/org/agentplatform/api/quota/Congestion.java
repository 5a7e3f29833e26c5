package org.agentplatform.api.quota;

/**
 * Port: how far behind the event store the stages every owner's tasks pass through in one order are (handed to the
 * runtime, projected for reads and streams), and what that says of the node: room to take more, at its edge, or saturated
 * (behind by more than they catch up on at once). {@link FairShare} keeps the node's task creates at its edge and shares
 * them between owners.
 */
public interface Congestion {

    /** What the lag says of the node. */
    enum State {
        /** Well within what the stages keep up with: the node can take more. */
        ROOM,
        /** Behind, not yet saturated: take no more. */
        EDGE,
        /** Behind by more than they catch up on at once: take less. */
        SATURATED
    }

    State state();

    /** How far behind the store the slowest of the stages was when last looked at, in events. */
    long lag();
}
