package org.agentplatform.command;

import java.util.concurrent.CompletionException;
import org.agentplatform.kernel.error.CommandRefused;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How processes report back: send without waiting. A refusal is expected (another path, a deadline, a
 * cancel, a sweep got there first) and only logged at debug; anything else is a warning.
 */
public final class ProcessCommands {

    private static final Logger log = LoggerFactory.getLogger(ProcessCommands.class);

    private ProcessCommands() {
    }

    public static void send(CommandGateway commands, Object command) {
        commands.send(command, (message, result) -> {
            if (result.isExceptional()) {
                Throwable failure = unwrap(result.exceptionResult());
                if (failure instanceof CommandRefused) {
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
