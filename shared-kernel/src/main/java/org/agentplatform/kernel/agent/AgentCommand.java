package org.agentplatform.kernel.agent;

import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Commands of the {@code Agent} aggregate. Most reflect a committed runtime operation ({@code operationId}
 * makes a replayed projection step a no-op); {@link ChangeAgentSettings} is the owner's PATCH.
 */
public sealed interface AgentCommand {

    record CreateAgent(
            @TargetAggregateIdentifier AgentId agentId,
            OwnerId ownerId,
            InstanceId instanceId,
            String name,
            String model,
            OperationId operationId) implements AgentCommand {
    }

    record UpdateAgent(@TargetAggregateIdentifier AgentId agentId, String name, String model, OperationId operationId)
            implements AgentCommand {
    }

    record DeleteAgent(@TargetAggregateIdentifier AgentId agentId, OperationId operationId) implements AgentCommand {
    }

    record ApplyAgentTemplate(@TargetAggregateIdentifier AgentId agentId, String templateId, String model, OperationId operationId)
            implements AgentCommand {
    }

    record RecordSkillInstalled(
            @TargetAggregateIdentifier AgentId agentId,
            String name,
            String version,
            boolean enabled,
            OperationId operationId) implements AgentCommand {
    }

    record RecordSkillToggled(@TargetAggregateIdentifier AgentId agentId, String name, boolean enabled, OperationId operationId)
            implements AgentCommand {
    }

    record RecordSkillUninstalled(@TargetAggregateIdentifier AgentId agentId, String name, OperationId operationId)
            implements AgentCommand {
    }

    /** Owner only; a null field is left as it is. */
    record ChangeAgentSettings(
            @TargetAggregateIdentifier AgentId agentId,
            OwnerId requestedBy,
            Visibility visibility,
            Boolean mcpEnabled) implements AgentCommand {
    }

    /** Refuses (not found, forbidden) unless {@code requestedBy} may change the agent; applies nothing. */
    record CheckAgentWritable(@TargetAggregateIdentifier AgentId agentId, OwnerId requestedBy) implements AgentCommand {
    }

    /** The answer to {@link CheckAgentWritable}: where the agent's runtime is. */
    record AgentLocation(AgentId agentId, InstanceId instanceId) {
    }
}
