package org.agentplatform.command.agent;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.agentplatform.kernel.agent.AgentCommand.AgentLocation;
import org.agentplatform.kernel.agent.AgentCommand.ApplyAgentTemplate;
import org.agentplatform.kernel.agent.AgentCommand.ChangeAgentSettings;
import org.agentplatform.kernel.agent.AgentCommand.CheckAgentWritable;
import org.agentplatform.kernel.agent.AgentCommand.CreateAgent;
import org.agentplatform.kernel.agent.AgentCommand.DeleteAgent;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillInstalled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillToggled;
import org.agentplatform.kernel.agent.AgentCommand.RecordSkillUninstalled;
import org.agentplatform.kernel.agent.AgentCommand.UpdateAgent;
import org.agentplatform.kernel.agent.AgentEvent.AgentCreated;
import org.agentplatform.kernel.agent.AgentEvent.AgentDeleted;
import org.agentplatform.kernel.agent.AgentEvent.AgentMcpToggled;
import org.agentplatform.kernel.agent.AgentEvent.AgentTemplateApplied;
import org.agentplatform.kernel.agent.AgentEvent.AgentUpdated;
import org.agentplatform.kernel.agent.AgentEvent.AgentVisibilityChanged;
import org.agentplatform.kernel.agent.AgentEvent.SkillInstalled;
import org.agentplatform.kernel.agent.AgentEvent.SkillToggled;
import org.agentplatform.kernel.agent.AgentEvent.SkillUninstalled;
import org.agentplatform.kernel.agent.AgentId;
import org.agentplatform.kernel.agent.Visibility;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.operation.OperationId;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * A platform agent: the reflection of a runtime's agent (created, changed and deleted by runtime
 * operations, each applied once) plus the owner's own settings (visibility, MCP).
 */
class Agent {

    private AgentId id;
    private OwnerId ownerId;
    private InstanceId instanceId;
    private Visibility visibility;
    private boolean mcpEnabled;
    private boolean deleted;
    private final Map<String, Boolean> skills = new HashMap<>();
    private final Set<OperationId> applied = new HashSet<>();

    protected Agent() {
        // for event sourcing
    }

    /** The id as a string: deadline scopes are serialized, and a string survives that where a record would not. */
    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    Agent(CreateAgent command) {
        apply(new AgentCreated(command.agentId(), command.ownerId(), command.instanceId(), command.name(), command.model(),
                Visibility.PRIVATE, false, command.operationId()));
    }

    @CommandHandler
    void handle(UpdateAgent command) {
        if (reflect(command.operationId())) {
            apply(new AgentUpdated(id, command.name(), command.model(), command.operationId()));
        }
    }

    @CommandHandler
    void handle(DeleteAgent command) {
        if (reflect(command.operationId())) {
            apply(new AgentDeleted(id, command.operationId()));
        }
    }

    @CommandHandler
    void handle(ApplyAgentTemplate command) {
        if (reflect(command.operationId())) {
            apply(new AgentTemplateApplied(id, command.templateId(), command.model(), command.operationId()));
        }
    }

    @CommandHandler
    void handle(RecordSkillInstalled command) {
        if (reflect(command.operationId())) {
            apply(new SkillInstalled(id, command.name(), command.version(), command.enabled(), command.operationId()));
        }
    }

    @CommandHandler
    void handle(RecordSkillToggled command) {
        if (reflect(command.operationId())) {
            apply(new SkillToggled(id, command.name(), command.enabled(), command.operationId()));
        }
    }

    @CommandHandler
    void handle(RecordSkillUninstalled command) {
        if (reflect(command.operationId()) && skills.containsKey(command.name())) {
            apply(new SkillUninstalled(id, command.name(), command.operationId()));
        }
    }

    @CommandHandler
    Long handle(ChangeAgentSettings command) {
        requireWritableBy(command.requestedBy());
        if (command.visibility() != null && command.visibility() != visibility) {
            apply(new AgentVisibilityChanged(id, command.visibility()));
        }
        if (command.mcpEnabled() != null && command.mcpEnabled() != mcpEnabled) {
            apply(new AgentMcpToggled(id, command.mcpEnabled()));
        }
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    AgentLocation handle(CheckAgentWritable command) {
        requireWritableBy(command.requestedBy());
        return new AgentLocation(id, instanceId);
    }

    /** Whether this runtime operation still has to be reflected (a replayed projection step is a no-op). */
    private boolean reflect(OperationId operationId) {
        if (deleted) {
            throw CommandRefused.agentNotFound("Agent " + id + " has been deleted");
        }
        return !applied.contains(operationId);
    }

    private void requireWritableBy(OwnerId requestedBy) {
        if (deleted) {
            throw CommandRefused.agentNotFound("No agent " + id);
        }
        if (!ownerId.equals(requestedBy)) {
            throw CommandRefused.forbidden("Only the agent's owner may change it");
        }
    }

    @EventSourcingHandler
    void on(AgentCreated event) {
        id = event.agentId();
        ownerId = event.ownerId();
        instanceId = event.instanceId();
        visibility = event.visibility();
        mcpEnabled = event.mcpEnabled();
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(AgentUpdated event) {
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(AgentTemplateApplied event) {
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(AgentDeleted event) {
        deleted = true;
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(AgentVisibilityChanged event) {
        visibility = event.visibility();
    }

    @EventSourcingHandler
    void on(AgentMcpToggled event) {
        mcpEnabled = event.mcpEnabled();
    }

    @EventSourcingHandler
    void on(SkillInstalled event) {
        skills.put(event.name(), event.enabled());
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(SkillToggled event) {
        skills.put(event.name(), event.enabled());
        applied.add(event.operationId());
    }

    @EventSourcingHandler
    void on(SkillUninstalled event) {
        skills.remove(event.name());
        applied.add(event.operationId());
    }
}
