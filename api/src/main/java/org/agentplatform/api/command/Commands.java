package org.agentplatform.api.command;

import java.time.Duration;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.RequestIds;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.error.ErrorCode;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * The API's only way to the write side: sends a command with who-did-it metadata, off the event loop on the command
 * senders' threads, retries optimistic-concurrency losses a few times, and turns refusals into the contract's errors.
 * <p>
 * The senders are a fixed pool of their own, not Reactor's bounded-elastic scheduler: handing a task to one of its
 * workers takes a monitor that the worker also takes, and an HTTP event loop that met a descheduled holder waited
 * 10-40 ms with every request of its connections (the burst profile showed hundreds of such waits).
 */
public final class Commands {

    private final CommandGateway gateway;
    private final Scheduler senders;

    /** @param senders where commands are sent and their transactions wait for the database (a blocking pool) */
    public Commands(CommandGateway gateway, Scheduler senders) {
        this.gateway = gateway;
        this.senders = senders;
    }

    /**
     * @param notFound the code an unknown aggregate answers ({@code not_found}, or {@code agent_not_found} for agents)
     */
    public <R> Mono<R> send(Object command, Caller caller, ServerWebExchange exchange, ErrorCode notFound) {
        return send(command, audit(caller, exchange), notFound);
    }

    /** Sends a command with the given who-did-it metadata (a request that carries no bearer credential, such as a ticket's). */
    public <R> Mono<R> send(Object command, Map<String, String> audit, ErrorCode notFound) {
        return Mono.<R>fromCallable(() -> gateway.sendAndWait(GenericCommandMessage.asCommandMessage(command).andMetaData(audit)))
                .subscribeOn(senders)
                .retryWhen(Retry.backoff(3, Duration.ofMillis(25)).filter(failure -> unwrap(failure) instanceof ConcurrencyException)
                        .onRetryExhaustedThrow((spec, signal) -> signal.failure()))
                .onErrorMap(failure -> translate(unwrap(failure), notFound));
    }

    /** Who did it and in which request: the metadata of every command and event the API causes. */
    public static Map<String, String> audit(Caller caller, ServerWebExchange exchange) {
        return Map.of(
                AuditMetadata.OWNER_ID, caller.ownerId().toString(),
                AuditMetadata.ACTOR, caller.credentialId(),
                AuditMetadata.REQUEST_ID, RequestIds.of(exchange));
    }

    private static Throwable translate(Throwable failure, ErrorCode notFound) {
        return switch (failure) {
            case CommandRefused refused -> new ApiException(refused.code(), refused.getMessage());
            case AggregateStreamCreationException duplicate -> new ApiException(ErrorCode.CONFLICT,
                    "It already exists (a request with this idempotency key was already made)");
            case AggregateNotFoundException missing -> new ApiException(notFound, "No such resource");
            case ConcurrencyException contended -> new ApiException(ErrorCode.CONFLICT, "Changed concurrently; try again");
            default -> failure;
        };
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while (current instanceof CommandExecutionException && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
