package org.agentplatform.infra.local;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.agentplatform.command.instance.InstanceProvisioning;
import org.agentplatform.command.operation.InstanceRuntime;
import org.agentplatform.command.operation.RuntimeCall;
import org.agentplatform.command.operation.RuntimeOutcome.Aborted;
import org.agentplatform.command.operation.RuntimeOutcome.Committed;
import org.agentplatform.command.operation.RuntimeOutcome.HarnessOperation;
import org.agentplatform.command.operation.RuntimeOutcome.PartiallyApplied;
import org.agentplatform.command.operation.RuntimeOutcome.Refused;
import org.agentplatform.command.operation.RuntimeOutcome;
import org.agentplatform.command.turn.AgentRuntime;
import org.agentplatform.command.turn.AgentTurn;
import org.agentplatform.command.turn.TurnReports;
import org.agentplatform.command.turn.TurnStart;
import org.agentplatform.infra.adapter.file.SkillArchives;
import org.agentplatform.infra.adapter.model.ModelBackends;
import org.agentplatform.infra.adapter.model.ModelCatalog;
import org.agentplatform.infra.local.LocalProvider;
import org.agentplatform.infra.local.device.LocalDevices;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.privacy.PersonalContent;
import org.agentplatform.query.channel.ChannelChunks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in {@code local} provider and its runtimes, inside this service: every runtime method of the
 * contract with real, persistent state. A call is applied at most once (its outcome is recorded under
 * the operation id), is fenced by the runtime epoch, and honours the instance's injected faults.
 */
public final class LocalRuntime implements InstanceRuntime, InstanceProvisioning, AgentRuntime {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<FaultRule>> RULES = new TypeReference<>() {
    };

    private static final Logger log = LoggerFactory.getLogger(LocalRuntime.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final ScheduledExecutorService timers;
    private final Executor workers;
    private final Clock clock;
    private final LocalAgents agents;
    private final LocalSkills skills;
    private final LocalCron cron;
    private final LocalMcp mcp;
    private final LocalSessions sessions;
    private final LocalModels models;
    private final LocalAgentTurns turns;
    private final LocalDevices devices;
    private final Map<OperationId, PendingCall> pending = new ConcurrentHashMap<>();

    /**
     * @param tasks       where cron entries create their tasks
     * @param archives    where skills installed by file id are read from
     * @param workers     where runtime methods and lifecycle calls are applied
     * @param turnWorkers where turns are worked on, apart so that a burst of turns does not hold up the methods
     * @param turnClaimer where the node's claimer of waiting turns loops (one thread)
     * @param staleTurns  a running turn whose node has been silent this long is taken over
     * @param queuedTurns how many claimed turns may wait for a turn worker (the rest wait in PostgreSQL)
     * @param ownerWeights each owner's weight in the fair order of waiting turns
     * @param content     the owners' texts: a turn's message opened for the model, its chunks and answer sealed
     * @param meters      where turn durations are recorded
     * @param realDisplays whether running linux instances get a real X display (when Xvfb and xdotool are installed)
     */
    public LocalRuntime(JdbcTemplate jdbc, TransactionTemplate transactions, ModelCatalog catalog, ModelBackends backends,
            ChannelChunks chunks, TurnReports reports, CronTasks tasks, SkillArchives archives, ScheduledExecutorService timers,
            Executor workers, Executor turnWorkers, Executor turnClaimer, Clock clock, Duration staleTurns, int queuedTurns,
            Function<OwnerId, Integer> ownerWeights, PersonalContent content, MeterRegistry meters, boolean realDisplays) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.timers = timers;
        this.workers = workers;
        this.clock = clock;
        this.agents = new LocalAgents(jdbc, catalog, clock);
        this.skills = new LocalSkills(jdbc, agents, archives, clock);
        this.cron = new LocalCron(jdbc, transactions, agents, tasks, content, clock);
        this.mcp = new LocalMcp(jdbc, agents, clock);
        this.sessions = new LocalSessions(jdbc, agents, clock);
        this.models = new LocalModels(catalog, agents);
        this.turns = new LocalAgentTurns(jdbc, transactions, chunks, reports, backends, timers, turnWorkers, turnClaimer, clock, staleTurns,
                queuedTurns, ownerWeights, content, meters);
        this.devices = new LocalDevices(this::takeFault, instance -> runsAt(instance.id(), instance.runtimeEpoch()), realDisplays);
    }

    // ---- provisioning -------------------------------------------------------------------------

    @Override
    public CompletionStage<Void> deploy(InstanceId instance, OwnerId owner, String providerId, String regionId, InstanceKind kind) {
        if (!LocalProvider.ID.equals(providerId) || !LocalProvider.REGION.equals(regionId)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("No provider " + providerId + " in " + regionId));
        }
        return run(() -> jdbc.update("INSERT INTO local_instance (instance_id, owner_id, kind, state, runtime_epoch, updated_at)"
                + " VALUES (?, ?, ?, 'deployed', 0, ?) ON CONFLICT DO NOTHING", instance.value(), owner.value(), kind.wireName(), now()));
    }

    /**
     * Runs the runtime at {@code runtimeEpoch}, unless it is there already and stopped: every start has an epoch of its own,
     * so a stop of the same epoch came after it, though the two may reach the provider in either order.
     */
    @Override
    public CompletionStage<Void> activate(InstanceId instance, long runtimeEpoch) {
        return run(() -> jdbc.update("UPDATE local_instance SET state = 'running', runtime_epoch = ?, updated_at = ?"
                + " WHERE instance_id = ? AND state <> 'destroyed' AND (runtime_epoch < ? OR (runtime_epoch = ? AND state <> 'stopped'))",
                runtimeEpoch, now(), instance.value(), runtimeEpoch, runtimeEpoch));
    }

    /** Stops the runtime's epoch {@code runtimeEpoch}, also when its activation has not reached the provider yet. */
    @Override
    public CompletionStage<Void> stop(InstanceId instance, long runtimeEpoch) {
        return run(() -> {
            jdbc.update("UPDATE local_instance SET state = 'stopped', runtime_epoch = ?, updated_at = ? WHERE instance_id = ?"
                    + " AND runtime_epoch <= ? AND state <> 'destroyed'", runtimeEpoch, now(), instance.value(), runtimeEpoch);
            abortPending(instance, "RUNTIME_STOPPED", "The instance was stopped before the runtime applied the call");
            turns.abortOn(instance, "The agent's instance was stopped while it worked on the task");
            devices.release(instance);
        });
    }

    @Override
    public CompletionStage<Void> restart(InstanceId instance) {
        return run(() -> {
            abortPending(instance, "RUNTIME_RESTARTED", "The runtime restarted before it applied the call");
            turns.abortOn(instance, "The agent's instance restarted while it worked on the task");
            devices.release(instance);
        });
    }

    @Override
    public CompletionStage<Void> destroy(InstanceId instance) {
        return run(() -> {
            jdbc.update("UPDATE local_instance SET state = 'destroyed', updated_at = ? WHERE instance_id = ?", now(), instance.value());
            abortPending(instance, "RUNTIME_DESTROYED", "The instance was destroyed before the runtime applied the call");
            turns.abortOn(instance, "The agent's instance was destroyed while it worked on the task");
            devices.release(instance);
        });
    }

    // ---- runtime ------------------------------------------------------------------------------

    @Override
    public CompletionStage<RuntimeOutcome> invoke(RuntimeCall call) {
        FaultRule fault = takeFault(call.instanceId(), call.method().wireName()).orElse(null);
        if (fault != null && fault.neverAnswer()) {
            return new CompletableFuture<>(); // a silent runtime: the operation's answer deadline decides
        }
        PendingCall waiting = new PendingCall(call, new CompletableFuture<>());
        pending.put(call.operationId(), waiting);
        long latency = fault == null || fault.latencyMs() == null ? 0 : fault.latencyMs();
        timers.schedule(() -> workers.execute(() -> execute(waiting, fault)), latency, TimeUnit.MILLISECONDS);
        return waiting.answer();
    }

    @Override
    public boolean cancel(InstanceId instance, OperationId operation) {
        PendingCall call = pending.get(operation);
        return call != null && call.finish(new Aborted(), pending);
    }

    /** Applies the call; whatever fails, the call is answered (exceptionally at worst) and the worker goes on. */
    private void execute(PendingCall call, FaultRule fault) {
        try {
            applyAndAnswer(call, fault);
        } catch (RuntimeException unexpected) {
            log.atWarn().addKeyValue("operation_id", call.call().operationId().toString()).setCause(unexpected)
                    .log("the runtime call failed");
            call.answer().completeExceptionally(unexpected);
            pending.remove(call.call().operationId());
        }
    }

    private void applyAndAnswer(PendingCall call, FaultRule fault) {
        if (!call.claim()) {
            return;
        }
        RuntimeOutcome outcome;
        try {
            outcome = transactions.execute(status -> apply(call.call(), fault));
        } catch (RuntimeRefusal refusal) {
            Refused refused = new Refused(refusal.code(), refusal.getMessage(), refusal.retryMode(), refusal.context());
            if (!refusal.code().startsWith("RUNTIME_")) {
                record(call.call(), refused);
            }
            outcome = refused;
        } catch (RuntimeException failure) {
            call.answer().completeExceptionally(failure);
            pending.remove(call.call().operationId());
            return;
        }
        call.answer().complete(outcome);
        pending.remove(call.call().operationId());
    }

    /** In one transaction: fence by epoch, answer a repeated call from its record, else apply and record. */
    private RuntimeOutcome apply(RuntimeCall call, FaultRule fault) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT state, runtime_epoch FROM local_instance WHERE instance_id = ?"
                + " FOR UPDATE", call.instanceId().value());
        if (rows.isEmpty()) {
            throw new RuntimeRefusal("RUNTIME_NOT_FOUND", "No local runtime for instance " + call.instanceId());
        }
        String state = (String) rows.getFirst().get("state");
        long epoch = ((Number) rows.getFirst().get("runtime_epoch")).longValue();
        if ("destroyed".equals(state)) {
            throw new RuntimeRefusal("RUNTIME_DESTROYED", "The instance's runtime is destroyed");
        }
        if (call.runtimeEpoch() < epoch) {
            throw new RuntimeRefusal("RUNTIME_EPOCH_MISMATCH", "The call was dispatched to runtime epoch " + call.runtimeEpoch()
                    + " but the runtime is at epoch " + epoch, OperationError.RETRY_SAFE,
                    new OperationError.Context(Long.toString(epoch), null, null, null, null));
        }
        if (call.runtimeEpoch() > epoch) {
            startAt(call.instanceId(), call.runtimeEpoch());
        } else if (!"running".equals(state)) {
            throw new RuntimeRefusal("RUNTIME_STOPPED", "The instance's runtime is " + state, OperationError.RETRY_SAFE,
                    new OperationError.Context(Long.toString(epoch), null, null, null, null));
        }
        Optional<RuntimeOutcome> recorded = recorded(call.operationId());
        if (recorded.isPresent()) {
            return recorded.get();
        }
        if (fault != null && fault.failWith() != null) {
            throw new RuntimeRefusal(fault.failWith().code(), fault.failWith().message() == null
                    ? "Injected failure" : fault.failWith().message());
        }
        RuntimeOutcome outcome = dispatch(call, new Params(call.params()), fault != null && fault.partialWrite());
        record(call, outcome);
        return outcome;
    }

    private RuntimeOutcome dispatch(RuntimeCall call, Params params, boolean partialWrite) {
        return switch (call.method()) {
            case SKILLS_INSTALL -> skills.install(call, params, partialWrite);
            default -> new Committed(switch (call.method()) {
                case AGENT_CREATE -> agents.create(call, params);
                case AGENT_UPDATE -> agents.update(call, params);
                case AGENT_DELETE -> agents.delete(call, params);
                case AGENT_APPLY_TEMPLATE -> agents.applyTemplate(call, params);
                case SKILLS_LIST -> skills.list(call, params);
                case SKILLS_UPDATE -> skills.update(call, params);
                case SKILLS_UNINSTALL -> skills.uninstall(call, params);
                case MODELS_LIST -> models.list(call, params);
                case CRON_LIST -> cron.list(call, params);
                case CRON_STATUS -> cron.status(call, params);
                case CRON_ADD -> cron.add(call, params);
                case CRON_UPDATE -> cron.update(call, params);
                case CRON_REMOVE -> cron.remove(call, params);
                case CRON_RUN -> cron.run(call, params);
                case CRON_RUNS -> cron.listRuns(call, params);
                case MCP_LIST -> mcp.list(call, params);
                case MCP_PREPARE -> mcp.prepare(call, params);
                case MCP_SET -> mcp.set(call, params);
                case MCP_UNSET -> mcp.unset(call, params);
                case SESSION_SET_MODE -> sessions.setMode(call, params);
                case SESSION_CLEAR -> sessions.clear(call, params);
                case SESSION_SET_MODEL -> sessions.setModel(call, params);
                case SESSION_CANCEL -> sessions.cancel(call, params);
                case SKILLS_INSTALL -> throw new IllegalStateException("handled above");
            });
        };
    }

    /** Starts the cron runs that are due (called by the scheduler). */
    public void runDueCron() {
        cron.runDue();
    }

    // ---- turns of tasks and conversations --------------------------------------------------------------------------------

    @Override
    public void startTurn(AgentTurn turn) {
        turns.start(List.of(turn));
    }

    /** Records the turns in one statement (a dispatcher's batch). */
    @Override
    public void startTurns(List<AgentTurn> turns) {
        this.turns.start(turns);
    }

    @Override
    public void stopTurns(UUID channel) {
        turns.stop(channel, OptionalInt.empty());
    }

    @Override
    public void stopTurn(UUID channel, int turn) {
        turns.stop(channel, OptionalInt.of(turn));
    }

    // ---- devices ------------------------------------------------------------------------------

    /** The screens of this provider's instances (computer and mobile control). */
    public LocalDevices devices() {
        return devices;
    }

    /** Keeps this node's turns alive, takes over silent nodes' turns, reports unreported outcomes (called by the sweeper). */
    public void recoverTurns() {
        turns.recover();
    }

    @Override
    public Set<TurnStart> unknown(Collection<TurnStart> started) {
        return turns.unknown(started);
    }

    // ---- faults -------------------------------------------------------------------------------

    public Optional<List<FaultRule>> faults(InstanceId instance) {
        List<String> rows = jdbc.queryForList("SELECT faults::text FROM local_instance WHERE instance_id = ?", String.class,
                instance.value());
        return rows.stream().findFirst().map(json -> JSON.readValue(json, RULES));
    }

    public boolean replaceFaults(InstanceId instance, List<FaultRule> rules) {
        return jdbc.update("UPDATE local_instance SET faults = ?::jsonb, updated_at = ? WHERE instance_id = ?",
                JSON.writeValueAsString(rules), now(), instance.value()) == 1;
    }

    /**
     * Whether the runtime runs the instance for a request that read it running at {@code runtimeEpoch}. The read model and
     * the runtime's activation follow the same event in separate processors, so a request may see the instance running
     * before the activation lands: as for a call dispatched at that epoch ({@link #apply}), a runtime still below it is
     * started at it first.
     */
    boolean runsAt(InstanceId instance, long runtimeEpoch) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT state, runtime_epoch FROM local_instance WHERE instance_id = ?"
                    + " FOR UPDATE", instance.value());
            if (rows.isEmpty() || "destroyed".equals(rows.getFirst().get("state"))) {
                return false;
            }
            if (runtimeEpoch > ((Number) rows.getFirst().get("runtime_epoch")).longValue()) {
                startAt(instance, runtimeEpoch);
                return true;
            }
            return "running".equals(rows.getFirst().get("state"));
        }));
    }

    /** The runtime running at {@code runtimeEpoch}, ahead of its activation (within the caller's transaction). */
    private void startAt(InstanceId instance, long runtimeEpoch) {
        jdbc.update("UPDATE local_instance SET state = 'running', runtime_epoch = ?, updated_at = ? WHERE instance_id = ?",
                runtimeEpoch, now(), instance.value());
    }

    /** The first rule matching the method, used once (a rule with {@code times} runs out). */
    Optional<FaultRule> takeFault(InstanceId instance, String method) {
        return transactions.execute(status -> {
            List<String> rows = jdbc.queryForList("SELECT faults::text FROM local_instance WHERE instance_id = ? FOR UPDATE",
                    String.class, instance.value());
            if (rows.isEmpty()) {
                return Optional.<FaultRule>empty();
            }
            List<FaultRule> rules = new ArrayList<>(JSON.readValue(rows.getFirst(), RULES));
            for (int index = 0; index < rules.size(); index++) {
                FaultRule rule = rules.get(index);
                if (rule.matches(method)) {
                    FaultRule used = rule.used();
                    if (used.isSpent()) {
                        rules.remove(index);
                    } else {
                        rules.set(index, used);
                    }
                    jdbc.update("UPDATE local_instance SET faults = ?::jsonb WHERE instance_id = ?", JSON.writeValueAsString(rules),
                            instance.value());
                    return Optional.of(rule);
                }
            }
            return Optional.<FaultRule>empty();
        });
    }

    // ---- bookkeeping --------------------------------------------------------------------------

    private void abortPending(InstanceId instance, String code, String message) {
        pending.values().stream()
                .filter(call -> call.call().instanceId().equals(instance))
                .forEach(call -> call.finish(new Refused(code, message, OperationError.RETRY_SAFE, OperationError.Context.EMPTY),
                        pending));
    }

    private Optional<RuntimeOutcome> recorded(OperationId operation) {
        List<String> rows = jdbc.queryForList("SELECT outcome::text FROM local_applied_operation WHERE operation_id = ?", String.class,
                operation.value());
        return rows.stream().findFirst().map(LocalRuntime::decode);
    }

    private void record(RuntimeCall call, RuntimeOutcome outcome) {
        jdbc.update("INSERT INTO local_applied_operation (operation_id, instance_id, outcome, applied_at) VALUES (?, ?, ?::jsonb, ?)"
                + " ON CONFLICT DO NOTHING", call.operationId().value(), call.instanceId().value(), encode(outcome), now());
    }

    private static String encode(RuntimeOutcome outcome) {
        return JSON.writeValueAsString(switch (outcome) {
            case Committed committed -> Map.of("kind", "committed", "result", committed.result() == null ? Map.of() : committed.result());
            case Refused refused -> Map.of("kind", "refused", "code", refused.code(), "message", refused.message(),
                    "retryMode", refused.retryMode());
            case PartiallyApplied partial -> Map.of("kind", "partial", "code", partial.code(), "message", partial.message(),
                    "operations", partial.operations());
            case Aborted aborted -> Map.of("kind", "aborted");
        });
    }

    private static RuntimeOutcome decode(String json) {
        Map<?, ?> stored = JSON.readValue(json, Map.class);
        return switch ((String) stored.get("kind")) {
            case "committed" -> new Committed(stored.get("result"));
            case "refused" -> new Refused((String) stored.get("code"), (String) stored.get("message"),
                    (String) stored.get("retryMode"), OperationError.Context.EMPTY);
            case "partial" -> new PartiallyApplied((String) stored.get("code"), (String) stored.get("message"),
                    JSON.convertValue(stored.get("operations"), new TypeReference<List<HarnessOperation>>() {
                    }));
            default -> new Aborted();
        };
    }

    private CompletionStage<Void> run(Runnable work) {
        return CompletableFuture.runAsync(work, workers);
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    /** A call waiting for its latency, which either the runtime or a cancel/stop finishes first. */
    private record PendingCall(RuntimeCall call, CompletableFuture<RuntimeOutcome> answer, AtomicBoolean taken) {

        PendingCall(RuntimeCall call, CompletableFuture<RuntimeOutcome> answer) {
            this(call, answer, new AtomicBoolean());
        }

        boolean claim() {
            return taken.compareAndSet(false, true);
        }

        boolean finish(RuntimeOutcome outcome, Map<OperationId, PendingCall> pending) {
            if (!claim()) {
                return false;
            }
            pending.remove(call.operationId());
            answer.complete(outcome);
            return true;
        }
    }
}
