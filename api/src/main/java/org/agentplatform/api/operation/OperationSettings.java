package org.agentplatform.api.operation;

import java.time.Duration;

/**
 * @param defaultDeadline how long a queued operation may wait for its instance before it expires
 * @param maxDeadline     the longest {@code deadline_ms} a caller may ask for
 * @param syncWait        how long the agent endpoints (skills, template, models) wait for their operation
 * @param dedupeWindow    within it, repeating an agent write that is still applying waits for it instead of writing again
 */
public record OperationSettings(Duration defaultDeadline, Duration maxDeadline, Duration syncWait, Duration dedupeWindow) {
}
