package org.agentplatform.kernel.task;

import java.time.Instant;

/**
 * When a runtime worker began a task's turn: {@code window} is the global index of the event that handed the turn over
 * (the window its chunks are written in), {@code at} the instant the worker began.
 */
public record TurnBegan(long window, Instant at) {
}
