package org.agentplatform.command;

import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.error.CommandRefused;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How processes report back: send without waiting. A refusal is expected (another path, a deadline, a
 * cancel, a sweep got there first) and only logged at debug; a command that raced another writer of its
 * aggregate (a {@code ConcurrencyException}) is sent again, a few times; anything else is a warning.
 * <p>
 * A command carries who caused it ({@link AuditMetadata}): sent while handling an event, Axon adds it; sent from a
 * worker a handler handed its work to ({@link #carrying}), the handler's; otherwise the process named by the caller.
 */
public final class ProcessCommands {

    private static final Logger log = LoggerFactory.getLogger(ProcessCommands.class);
    /** How often a command that lost a race is sent again. */
    private static final int RACES_RETRIED = 3;
    /** What the unit of work that handed work to this thread would have given its commands. */
    private static final ThreadLocal<MetaData> HANDED_ON = new ThreadLocal<>();

    private ProcessCommands() {
    }

    public static void send(CommandGateway commands, Object command) {
        send(commands, withContext(command, Map.of()), RACES_RETRIED);
    }

    /** Sends a command in a context taken earlier ({@link #context()}), e.g. from a callback on another thread. */
    public static void send(CommandGateway commands, Object command, MetaData context) {
        send(commands, GenericCommandMessage.asCommandMessage(command).andMetaData(context), RACES_RETRIED);
    }

    /** The context a command sent now would carry, to send one later from elsewhere. */
    public static MetaData context() {
        if (CurrentUnitOfWork.isStarted()) {
            return CurrentUnitOfWork.correlationData();
        }
        MetaData handedOn = HANDED_ON.get();
        return handedOn != null ? handedOn : MetaData.emptyInstance();
    }

    /** Sends a command of a process that handles no event (a worker, a timer, the runtime): its actor is the process. */
    public static void send(CommandGateway commands, Object command, String process) {
        send(commands, withContext(command, AuditMetadata.byProcess(process)), RACES_RETRIED);
    }

    /** The command with the context of the event it answers, if it answers one, else with {@code otherwise}. */
    public static CommandMessage<?> withContext(Object command, Map<String, ?> otherwise) {
        CommandMessage<?> message = GenericCommandMessage.asCommandMessage(command);
        if (CurrentUnitOfWork.isStarted()) {
            return message;
        }
        MetaData handedOn = HANDED_ON.get();
        return message.andMetaData(handedOn != null ? handedOn : otherwise);
    }

    /** Runs {@code work} as the named process: the commands it sends outside any handler act as {@code system:<process>}. */
    public static void runAs(String process, Runnable work) {
        within(MetaData.from(AuditMetadata.byProcess(process)), work);
    }

    /**
     * An executor whose tasks send their commands in the context of the event handler that submitted them (its
     * owner, request id, and itself as the actor answering that event).
     */
    public static Executor carrying(Executor executor) {
        return task -> executor.execute(carried(task));
    }

    /** {@code work}, to run later elsewhere, sending its commands in the context they would have here and now. */
    public static Runnable carried(Runnable work) {
        MetaData context = CurrentUnitOfWork.isStarted() ? CurrentUnitOfWork.correlationData() : HANDED_ON.get();
        return () -> within(context, work);
    }

    private static void within(MetaData context, Runnable work) {
        MetaData previous = HANDED_ON.get();
        HANDED_ON.set(context);
        try {
            work.run();
        } finally {
            if (previous == null) {
                HANDED_ON.remove();
            } else {
                HANDED_ON.set(previous);
            }
        }
    }

    private static void send(CommandGateway commands, CommandMessage<?> command, int racesLeft) {
        commands.send(command, (message, result) -> {
            if (result.isExceptional()) {
                Throwable failure = unwrap(result.exceptionResult());
                if (failure instanceof ConcurrencyException && racesLeft > 0) {
                    send(commands, command, racesLeft - 1);
                } else if (failure instanceof CommandRefused) {
                    log.atDebug().addKeyValue("command", command.getPayloadType().getSimpleName()).log(failure.getMessage());
                } else {
                    log.atWarn().addKeyValue("command", command.getPayloadType().getSimpleName()).setCause(failure).log("command failed");
                }
            }
        });
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CommandExecutionException || current instanceof CompletionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
