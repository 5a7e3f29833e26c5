package org.agentplatform.command;

import java.util.concurrent.CompletionException;
import org.agentplatform.kernel.error.CommandRefused;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How processes report back: send without waiting. A refusal is expected (another path, a deadline, a
 * cancel, a sweep got there first) and only logged at debug; a command that raced another writer of its
 * aggregate (a {@code ConcurrencyException}) is sent again, a few times; anything else is a warning.
 */
public final class ProcessCommands {

    private static final Logger log = LoggerFactory.getLogger(ProcessCommands.class);
    /** How often a command that lost a race is sent again. */
    private static final int RACES_RETRIED = 3;

    private ProcessCommands() {
    }

    public static void send(CommandGateway commands, Object command) {
        send(commands, command, RACES_RETRIED);
    }

    private static void send(CommandGateway commands, Object command, int racesLeft) {
        commands.send(command, (message, result) -> {
            if (result.isExceptional()) {
                Throwable failure = unwrap(result.exceptionResult());
                if (failure instanceof ConcurrencyException && racesLeft > 0) {
                    send(commands, command, racesLeft - 1);
                } else if (failure instanceof CommandRefused) {
                    log.atDebug().addKeyValue("command", command.getClass().getSimpleName()).log(failure.getMessage());
                } else {
                    log.atWarn().addKeyValue("command", command.getClass().getSimpleName()).setCause(failure).log("command failed");
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
