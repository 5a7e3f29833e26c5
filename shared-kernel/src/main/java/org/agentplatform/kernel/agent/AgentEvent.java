package org.agentplatform.kernel.agent;

import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;

/** Events of the {@code Agent} aggregate. */
public sealed interface AgentEvent {

    AgentId agentId();

    record AgentCreated(
            AgentId agentId,
            OwnerId ownerId,
            InstanceId instanceId,
            String name,
            String model,
            Visibility visibility,
            boolean mcpEnabled,
            OperationId operationId) implements AgentEvent {
    }

    record AgentUpdated(AgentId agentId, String name, String model, OperationId operationId) implements AgentEvent {
    }

    record AgentDeleted(AgentId agentId, OperationId operationId) implements AgentEvent {
    }

    record AgentTemplateApplied(AgentId agentId, String templateId, String model, OperationId operationId) implements AgentEvent {
    }

    record AgentVisibilityChanged(AgentId agentId, Visibility visibility) implements AgentEvent {
    }

    record AgentMcpToggled(AgentId agentId, boolean mcpEnabled) implements AgentEvent {
    }

    record SkillInstalled(AgentId agentId, String name, String version, boolean enabled, OperationId operationId)
            implements AgentEvent {
    }

    record SkillToggled(AgentId agentId, String name, boolean enabled, OperationId operationId) implements AgentEvent {
    }

    record SkillUninstalled(AgentId agentId, String name, OperationId operationId) implements AgentEvent {
    }
}
