package org.agentplatform.api.operation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import org.agentplatform.api.auth.Caller;
import org.agentplatform.api.command.Commands;
import org.agentplatform.api.error.ApiException;
import org.agentplatform.api.web.RequestIds;
import org.agentplatform.kernel.error.ErrorCode;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationCommand.QueueOperation;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.agentplatform.query.operation.OperationReads;
import org.agentplatform.query.operation.OperationRecord;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Queues runtime operations on an instance (for {@code /methods} and the agent endpoints) and answers
 * them as the read model has them, so a snapshot returned here is also what a GET returns next.
 */
public final class OperationQueue {

    /** How long the answer waits for the read model to show the queued operation, before folding it from the store. */
    private static final Duration READ_MODEL_WAIT = Duration.ofSeconds(1);
    private static final JsonMapper CANONICAL = JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    private final Commands commands;
    private final OperationReads operations;
    private final SecretSealer vault;
    private final Clock clock;
    private final OperationSettings settings;

    public OperationQueue(Commands commands, OperationReads operations, SecretSealer vault, Clock clock, OperationSettings settings) {
        this.commands = commands;
        this.operations = operations;
        this.vault = vault;
        this.clock = clock;
        this.settings = settings;
    }

    public OperationSettings settings() {
        return settings;
    }

    /** Queues a new operation owned by {@code instanceOwner}; its start deadline is {@code deadline} from now. */
    public Mono<OperationRecord> queue(Caller caller, ServerWebExchange exchange, InstanceId instance, OwnerId instanceOwner,
            RuntimeMethod method, Map<String, Object> params, String resourceKey, Duration deadline) {
        OperationId id = OperationId.random();
        return MethodParams.sealSecrets(method, params, instanceOwner, vault)
                .flatMap(sealed -> commands.send(new QueueOperation(id, instance, instanceOwner, method, sealed, resourceKey,
                        digest(method, params), clock.instant().plus(deadline), RequestIds.of(exchange)), caller, exchange,
                        ErrorCode.NOT_FOUND))
                .then(operations.awaitSequence(id, 0, READ_MODEL_WAIT))
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.SERVICE_TIMEOUT,
                        "Operation " + id + " was queued but is not visible yet; read it again shortly", "",
                        Map.of("operation_id", id.toString()), retryAfterSeconds())));
    }

    /**
     * Like {@link #queue}, but when the newest operation on {@code resourceKey} within the dedupe window is
     * the same request, answers that one: retrying a write that is still applying does not write twice.
     */
    public Mono<OperationRecord> queueOnce(Caller caller, ServerWebExchange exchange, InstanceId instance, OwnerId instanceOwner,
            RuntimeMethod method, Map<String, Object> params, String resourceKey) {
        String digest = digest(method, params);
        return operations.latestOnResource(instanceOwner, resourceKey, clock.instant().minus(settings.dedupeWindow()))
                .filter(latest -> digest.equals(latest.requestDigest()) && !latest.status().isTerminal())
                .switchIfEmpty(Mono.defer(() -> queue(caller, exchange, instance, instanceOwner, method, params, resourceKey,
                        settings.defaultDeadline())));
    }

    /** The operation once terminal; 504 {@code service_timeout} with {@code Retry-After} while it is still applying. */
    public Mono<OperationRecord> awaitOutcome(OperationRecord queued) {
        return operations.awaitTerminal(queued.id(), settings.syncWait())
                .switchIfEmpty(Mono.error(() -> new ApiException(ErrorCode.SERVICE_TIMEOUT,
                        "The change is still being applied; retry the same request after Retry-After seconds", "",
                        Map.of("operation_id", queued.id().toString()), retryAfterSeconds())));
    }

    private long retryAfterSeconds() {
        return Math.max(1, settings.syncWait().toSeconds() / 2);
    }

    static String digest(RuntimeMethod method, Map<String, Object> params) {
        try {
            byte[] canonical = (method.wireName() + "\n" + CANONICAL.writeValueAsString(params)).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
