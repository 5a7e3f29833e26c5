package org.agentplatform.kernel.terminal;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/**
 * Events of the {@code Terminal} aggregate: its lifecycle and each ticket granted and redeemed (by {@code jti}).
 * The bytes typed into or written by the shell are never events.
 */
public sealed interface TerminalEvent {

    TerminalId terminalId();

    OwnerId ownerId();

    InstanceId instanceId();

    record TerminalOpened(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, AgentId agentId, ConversationId conversationId,
            String jti, Instant ticketExpiresAt) implements TerminalEvent {
    }

    /** A further ticket, to resume the terminal. */
    record TerminalTicketGranted(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, String jti, Instant expiresAt)
            implements TerminalEvent {
    }

    record TerminalAttached(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, String jti, int attachment)
            implements TerminalEvent {
    }

    record TerminalDetached(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, int attachment) implements TerminalEvent {
    }

    record TerminalEnded(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, TerminalEnd reason, Integer exitStatus)
            implements TerminalEvent {
    }
}
