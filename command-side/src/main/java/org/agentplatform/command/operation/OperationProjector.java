package org.agentplatform.command.operation;

import java.util.Map;
import java.util.concurrent.Executor;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.AuditMetadata;
import org.agentplatform.kernel.agent.AgentCommand.ApplyAgentTemplate;
import org.agentplatform.kernel.agent.AgentCommand.CreateAgent;
import org.agentplatform.kernel.agent.AgentCommand.DeleteAgent;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillInstalled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillToggled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillUninstalled;
import org.agentplatform.kernel.agent.AgentCommand.UpdateAgent;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.EffectState;
import org.agentplatform.kernel.operation.OperationCommand.BlockOperationProjection;
import org.agentplatform.kernel.operation.OperationCommand.CompleteOperationProjection;
import org.agentplatform.kernel.operation.OperationError;
import org.agentplatform.kernel.operation.OperationEvent.OperationProjectionPending;
import org.agentplatform.kernel.operation.OperationId;
import org.agentplatform.kernel.operation.OperationProjection;
import org.agentplatform.kernel.operation.ProjectionState;
import org.agentplatform.kernel.operation.RuntimeMethod;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reflects what a runtime committed onto the platform: {@code agent/create} makes the platform agent
 * (its id is the runtime's agent id), other agent and skill methods change it. Every step carries the
 * operation id, so running a projection twice (a replay, a sweep after a crash) changes nothing more.
 * When the platform cannot reflect it (the agent is gone), the operation is {@code projection_blocked}.
 */
@ProcessingGroup(OperationProjector.GROUP)
public class OperationProjector {

    public static final String GROUP = "operation-projection";
    private static final Logger log = LoggerFactory.getLogger(OperationProjector.class);

    private final CommandGateway commands;
    private final Executor executor;

    public OperationProjector(CommandGateway commands, Executor executor) {
        this.commands = commands;
        this.executor = ProcessCommands.carrying(executor);
    }

    @EventHandler
    void on(OperationProjectionPending event) {
        executor.execute(() -> project(new PendingProjection(event.operationId(), event.instanceId(), event.ownerId(),
                event.method(), event.params(), event.result())));
    }

    /** What a projection needs, from the event or (for sweeps) from the read model. */
    public record PendingProjection(OperationId operationId, InstanceId instanceId, OwnerId ownerId, RuntimeMethod method,
            Map<String, Object> params, Object result) {
    }

    public void project(PendingProjection pending) {
        OperationProjection projection;
        try {
            projection = reflect(pending);
        } catch (RuntimeException failure) {
            Throwable cause = ProcessCommands.unwrap(failure);
            if (cause instanceof CommandRefused || cause instanceof AggregateNotFoundException) {
                block(pending, cause.getMessage());
                return;
            }
            log.atWarn().addKeyValue("operation_id", pending.operationId().toString()).setCause(failure)
                    .log("projection failed; a sweep will retry it");
            return;
        }
        ProcessCommands.send(commands, new CompleteOperationProjection(pending.operationId(), projection));
    }

    private OperationProjection reflect(PendingProjection pending) {
        OperationId operation = pending.operationId();
        Map<String, Object> params = pending.params();
        Map<?, ?> result = pending.result() instanceof Map<?, ?> map ? map : Map.of();
        AgentId agent = AgentId.of(text(pending.method() == RuntimeMethod.AGENT_CREATE ? result : params, "agentId"));
        switch (pending.method()) {
            case AGENT_CREATE -> create(new CreateAgent(agent, pending.ownerId(), pending.instanceId(), text(result, "name"),
                    text(result, "model"), operation));
            case AGENT_UPDATE -> sendAndWait(new UpdateAgent(agent, text(result, "name"), text(result, "model"),
                    operation));
            case AGENT_DELETE -> sendAndWait(new DeleteAgent(agent, operation));
            case AGENT_APPLY_TEMPLATE -> sendAndWait(new ApplyAgentTemplate(agent, text(params, "templateId"),
                    text(result, "model"), operation));
            case SKILLS_INSTALL -> sendAndWait(new RecordSkillInstalled(agent, text(result, "name"),
                    text(result, "version"), !Boolean.FALSE.equals(result.get("enabled")), operation));
            case SKILLS_UPDATE -> sendAndWait(isToggleOnly(params)
                    ? new RecordSkillToggled(agent, text(result, "name"), Boolean.TRUE.equals(result.get("enabled")), operation)
                    : new RecordSkillInstalled(agent, text(result, "name"), text(result, "version"),
                            !Boolean.FALSE.equals(result.get("enabled")), operation));
            case SKILLS_UNINSTALL -> sendAndWait(new RecordSkillUninstalled(agent, text(params, "name"), operation));
            default -> throw new IllegalStateException(pending.method().wireName() + " is not projected");
        }
        return new OperationProjection(operation.toString(), ProjectionState.APPLIED, agent);
    }

    private void create(CreateAgent command) {
        try {
            sendAndWait(command);
        } catch (RuntimeException failure) {
            if (!(ProcessCommands.unwrap(failure) instanceof AggregateStreamCreationException)) {
                throw failure;
            }
            // a repeated projection of the same operation: the agent exists, which is what it wanted
        }
    }

    private void sendAndWait(Object command) {
        commands.sendAndWait(ProcessCommands.withContext(command, AuditMetadata.byProcess(GROUP)));
    }

    private void block(PendingProjection pending, String reason) {
        ProcessCommands.send(commands, new BlockOperationProjection(pending.operationId(), new OperationError("PROJECTION_BLOCKED",
                "The runtime applied the operation but the platform cannot reflect it: " + reason, EffectState.COMMITTED,
                OperationError.RETRY_MANUAL, null, new OperationError.Context(null, null, null, null,
                        pending.params() == null ? null : String.valueOf(pending.params().get("agentId"))))));
    }

    private static boolean isToggleOnly(Map<String, Object> params) {
        return params.containsKey("enabled") && !params.containsKey("files") && !params.containsKey("version");
    }

    private static String text(Map<?, ?> values, String key) {
        Object value = values.get(key);
        return value == null ? null : value.toString();
    }
}
