package org.agentplatform.command.terminal;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.conversation.ConversationId;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.terminal.TerminalCommand.AttachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.Attachment;
import org.agentplatform.kernel.terminal.TerminalCommand.DetachTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.EndTerminal;
import org.agentplatform.kernel.terminal.TerminalCommand.GrantTerminalTicket;
import org.agentplatform.kernel.terminal.TerminalCommand.OpenTerminal;
import org.agentplatform.kernel.terminal.TerminalEnd;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalAttached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalDetached;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalEnded;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalOpened;
import org.agentplatform.kernel.terminal.TerminalEvent.TerminalTicketGranted;
import org.agentplatform.kernel.terminal.TerminalEvent;
import org.agentplatform.kernel.terminal.TerminalId;
import org.agentplatform.kernel.terminal.TerminalState;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * A terminal on an instance (see {@link TerminalState}): open until its shell exits, its owner closes it, its instance stops, or no connection
 * is attached to it for the idle period (a deadline). Each ticket is redeemed once: two connections racing with one
 * ticket append the same sequence number to the event store, and only one of them can.
 */
class Terminal {

    static final String IDLE = "terminal-idle";

    private TerminalId id;
    private OwnerId ownerId;
    private InstanceId instanceId;
    private AgentId agentId;
    private ConversationId conversationId;
    private final Map<String, Instant> granted = new HashMap<>();
    private final Set<String> redeemed = new HashSet<>();
    private int attachment;
    private TerminalState state;
    private TerminalEnd ended;

    protected Terminal() {
        // for event sourcing
    }

    /** The id as a string: deadline scopes are serialized, and a string survives that where a record would not. */
    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    Terminal(OpenTerminal command, DeadlineManager deadlines) {
        apply(new TerminalOpened(command.terminalId(), command.ownerId(), command.instanceId(), command.agentId(),
                command.conversationId(), command.jti(), command.ticketExpiresAt()));
        deadlines.schedule(command.idleUntil(), IDLE);
    }

    @CommandHandler
    void handle(GrantTerminalTicket command) {
        if (!ownerId.equals(command.requestedBy()) || !instanceId.equals(command.instanceId())) {
            throw CommandRefused.notFound("No terminal " + id + " on instance " + command.instanceId());
        }
        requireLive("resume");
        apply(new TerminalTicketGranted(id, ownerId, instanceId, command.jti(), command.expiresAt()));
    }

    @CommandHandler
    Attachment handle(AttachTerminal command, DeadlineManager deadlines) {
        if (redeemed.contains(command.jti())) {
            throw CommandRefused.conflict("The ticket was already used; ask for a new one with resumeTerminalId");
        }
        Instant expires = granted.get(command.jti());
        if (expires == null) {
            throw CommandRefused.forbidden("The ticket was not granted for terminal " + id);
        }
        if (!command.at().isBefore(expires)) {
            throw CommandRefused.forbidden("The ticket expired at " + expires + "; ask for a new one with resumeTerminalId");
        }
        if (!state.canBecome(TerminalState.ATTACHED)) {
            throw CommandRefused.notFound("Terminal " + id + " ended (" + ended.wireName() + ")");
        }
        apply(new TerminalAttached(id, ownerId, instanceId, command.jti(), attachment + 1));
        deadlines.cancelAllWithinScope(IDLE);
        return new Attachment(id, ownerId, instanceId, agentId, conversationId, attachment);
    }

    @CommandHandler
    void handle(DetachTerminal command, DeadlineManager deadlines) {
        if (!state.canBecome(TerminalState.DETACHED) || command.attachment() != attachment) {
            return; // a connection replaced by a later one, or the end of an ended terminal: nothing changes
        }
        apply(new TerminalDetached(id, ownerId, instanceId, attachment));
        deadlines.schedule(command.idleUntil(), IDLE);
    }

    @CommandHandler
    Long handle(EndTerminal command, DeadlineManager deadlines) {
        if (command.requestedBy() != null && !ownerId.equals(command.requestedBy())) {
            throw CommandRefused.notFound("No terminal " + id);
        }
        requireLive("end");
        apply(new TerminalEnded(id, ownerId, instanceId, command.reason(), command.exitStatus()));
        deadlines.cancelAllWithinScope(IDLE);
        return AggregateLifecycle.getVersion();
    }

    @DeadlineHandler(deadlineName = IDLE)
    void idle() {
        if (state == TerminalState.DETACHED) {
            apply(new TerminalEnded(id, ownerId, instanceId, TerminalEnd.IDLE, null));
        }
    }

    private void requireLive(String action) {
        if (!state.canBecome(TerminalState.ENDED)) {
            throw CommandRefused.conflict("Cannot " + action + " terminal " + id + ": it ended (" + ended.wireName() + ")");
        }
    }

    @EventSourcingHandler
    void on(TerminalEvent event) {
        switch (event) {
            case TerminalOpened opened -> {
                id = opened.terminalId();
                ownerId = opened.ownerId();
                instanceId = opened.instanceId();
                agentId = opened.agentId();
                conversationId = opened.conversationId();
                granted.put(opened.jti(), opened.ticketExpiresAt());
                state = TerminalState.DETACHED;
            }
            case TerminalTicketGranted ticket -> granted.put(ticket.jti(), ticket.expiresAt());
            case TerminalAttached attach -> {
                granted.remove(attach.jti());
                redeemed.add(attach.jti());
                attachment = attach.attachment();
                state = TerminalState.ATTACHED;
            }
            case TerminalDetached detached -> state = TerminalState.DETACHED;
            case TerminalEnded end -> {
                ended = end.reason();
                state = TerminalState.ENDED;
            }
        }
    }
}
