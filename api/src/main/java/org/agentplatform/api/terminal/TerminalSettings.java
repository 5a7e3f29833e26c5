package org.agentplatform.api.terminal;

import java.time.Duration;

/**
 * @param enabled     whether terminals may be opened at all
 * @param idleTimeout a terminal with no connection attached for this long ends
 */
public record TerminalSettings(boolean enabled, Duration idleTimeout) {
}
