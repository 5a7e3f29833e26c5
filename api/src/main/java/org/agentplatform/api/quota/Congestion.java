package org.agentplatform.api.quota;

/**
 * Port: how far behind the event store the stages every owner's tasks pass through in one order are (handed to the
 * runtime, projected for reads and streams), and what that says of the node: room to take more, at its edge, or saturated
 * (behind by more than they catch up on at once); and how much of the time the machine's runnable work waits for a core.
 * {@link FairShare} keeps the node's task creates at its edge, below it while several owners share the node, and shares
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

    /**
     * How much of the time the machine's runnable work waited for a core of late, 0 to 1 (Linux's CPU pressure, or the
     * machine's CPU load where it keeps none), smoothed over about half a second; NaN when the machine does not say.
     */
    double cpuPressure();
}
