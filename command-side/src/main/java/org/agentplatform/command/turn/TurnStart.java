package org.agentplatform.command.turn;

import java.util.UUID;

/**
 * A turn as its start is stored: the task or conversation it belongs to ({@code channel}) and the global index of the
 * event that started it, which is also the turn's {@link AgentTurn#logWindow()}.
 */
public record TurnStart(UUID channel, long logWindow) {
}
