package org.agentplatform.kernel.terminal;

import java.time.Instant;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Terminal} aggregate. A ticket is named by its {@code jti} only: the signed ticket itself
 * is a credential and never enters the event store. {@code idleUntil} is when the terminal ends if no connection
 * attaches to it before.
 */
public sealed interface TerminalCommand {

    TerminalId terminalId();

    /** Opens a terminal on a running instance and grants its first ticket. */
    record OpenTerminal(@TargetAggregateIdentifier TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, AgentId agentId,
            ConversationId conversationId, String jti, Instant ticketExpiresAt, Instant idleUntil) implements TerminalCommand {
    }

    /** Grants a further ticket to the owner's terminal on {@code instanceId} (to resume it after a dropped connection). */
    record GrantTerminalTicket(@TargetAggregateIdentifier TerminalId terminalId, OwnerId requestedBy, InstanceId instanceId, String jti,
            Instant expiresAt) implements TerminalCommand {
    }

    /**
     * Redeems the ticket {@code jti} at {@code at} for a connection: once, before it expires, while the terminal lives.
     * Answers the {@link Attachment}; the connection attached before it, if any, is replaced.
     */
    record AttachTerminal(@TargetAggregateIdentifier TerminalId terminalId, String jti, Instant at) implements TerminalCommand {
    }

    /** The connection {@code attachment} went away; with none attached, the terminal ends at {@code idleUntil}. */
    record DetachTerminal(@TargetAggregateIdentifier TerminalId terminalId, int attachment, Instant idleUntil) implements TerminalCommand {
    }

    /**
     * Ends the terminal; {@code requestedBy} is the owner closing it (null when the platform ends it), {@code exitStatus}
     * the shell's when it exited. Answers the terminal's version after it.
     */
    record EndTerminal(@TargetAggregateIdentifier TerminalId terminalId, OwnerId requestedBy, TerminalEnd reason, Integer exitStatus)
            implements TerminalCommand {
    }

    /**
     * A redeemed ticket: {@code attachment} numbers the connection (1 for the first); {@code resumed} is true once the
     * terminal's shell may already run (every attachment after the first).
     */
    record Attachment(TerminalId terminalId, OwnerId ownerId, InstanceId instanceId, AgentId agentId, ConversationId conversationId,
            int attachment) {

        public boolean resumed() {
            return attachment > 1;
        }
    }
}
