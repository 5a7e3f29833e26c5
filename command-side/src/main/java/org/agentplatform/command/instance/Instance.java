package org.agentplatform.command.instance;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceCommand.CheckInstanceReadiness;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceDeployment;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceRestart;
import org.agentplatform.kernel.instance.InstanceCommand.DeployInstance;
import org.agentplatform.kernel.instance.InstanceCommand.DestroyInstance;
import org.agentplatform.kernel.instance.InstanceCommand.FailInstance;
import org.agentplatform.kernel.instance.InstanceCommand.Readiness;
import org.agentplatform.kernel.instance.InstanceCommand.RestartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StartInstance;
import org.agentplatform.kernel.instance.InstanceCommand.StopInstance;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceFailed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestarted;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStarted;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceEvent.RuntimeStarted;
import org.agentplatform.kernel.instance.InstanceId;
import org.agentplatform.kernel.instance.InstanceKind;
import org.agentplatform.kernel.instance.InstanceStatus;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * A deployed instance: its lifecycle (see {@link InstanceStatus}) and its runtime epoch. Owner-facing
 * commands answer the aggregate version they produced, so the API can wait for its read model.
 */
class Instance {

    private InstanceId id;
    private OwnerId ownerId;
    private String providerId;
    private InstanceKind kind;
    private InstanceStatus status;
    private long runtimeEpoch;

    protected Instance() {
        // for event sourcing
    }

    /** The id as a string: deadline scopes are serialized, and a string survives that where a record would not. */
    @AggregateIdentifier
    String aggregateIdentifier() {
        return id == null ? null : id.toString();
    }

    @CommandHandler
    Instance(DeployInstance command) {
        apply(new InstanceDeployRequested(command.instanceId(), command.ownerId(), command.name(), command.providerId(),
                command.regionId(), command.kind()));
    }

    @CommandHandler
    void handle(CompleteInstanceDeployment command) {
        require(InstanceStatus.DEPLOYING, "complete the deployment of");
        apply(new InstanceDeployed(id, ownerId, providerId, kind, runtimeEpoch + 1));
    }

    @CommandHandler
    Long handle(StartInstance command) {
        requireOwner(command.requestedBy());
        require(InstanceStatus.STOPPED, "start");
        apply(new InstanceStarted(id, ownerId, providerId, kind, runtimeEpoch + 1));
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    Long handle(StopInstance command) {
        requireOwner(command.requestedBy());
        require(InstanceStatus.RUNNING, "stop");
        apply(new InstanceStopped(id, ownerId, providerId, runtimeEpoch));
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    Long handle(RestartInstance command) {
        requireOwner(command.requestedBy());
        requireTransition(InstanceStatus.RESTARTING, "restart");
        apply(new InstanceRestartRequested(id, ownerId, providerId, kind));
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    void handle(CompleteInstanceRestart command) {
        require(InstanceStatus.RESTARTING, "complete the restart of");
        apply(new InstanceRestarted(id, ownerId, providerId, kind, runtimeEpoch + 1));
    }

    @CommandHandler
    void handle(FailInstance command) {
        requireTransition(InstanceStatus.FAILED, "fail");
        apply(new InstanceFailed(id, ownerId, command.reason()));
    }

    @CommandHandler
    Long handle(DestroyInstance command) {
        requireOwner(command.requestedBy());
        requireTransition(InstanceStatus.DESTROYED, "destroy");
        apply(new InstanceDestroyed(id, ownerId, providerId));
        return AggregateLifecycle.getVersion();
    }

    @CommandHandler
    Readiness handle(CheckInstanceReadiness command) {
        requireOwner(command.requestedBy());
        if (status.isGone()) {
            throw CommandRefused.conflict("Instance " + id + " is " + status.wireName() + " and takes no runtime methods");
        }
        return new Readiness(id, status, runtimeEpoch, providerId, kind);
    }

    private void requireOwner(OwnerId requestedBy) {
        if (requestedBy != null && !requestedBy.equals(ownerId)) {
            throw CommandRefused.notFound("No instance " + id);
        }
    }

    private void require(InstanceStatus expected, String action) {
        if (status != expected) {
            throw refusal(action);
        }
    }

    private void requireTransition(InstanceStatus next, String action) {
        if (!status.canBecome(next)) {
            throw refusal(action);
        }
    }

    private CommandRefused refusal(String action) {
        return CommandRefused.conflict("Cannot " + action + " instance " + id + " while it is " + status.wireName());
    }

    @EventSourcingHandler
    void on(InstanceDeployRequested event) {
        id = event.instanceId();
        ownerId = event.ownerId();
        providerId = event.providerId();
        kind = event.kind();
        status = InstanceStatus.DEPLOYING;
    }

    @EventSourcingHandler
    void on(RuntimeStarted event) {
        status = InstanceStatus.RUNNING;
        runtimeEpoch = event.runtimeEpoch();
    }

    @EventSourcingHandler
    void on(InstanceStopped event) {
        status = InstanceStatus.STOPPED;
    }

    @EventSourcingHandler
    void on(InstanceRestartRequested event) {
        status = InstanceStatus.RESTARTING;
    }

    @EventSourcingHandler
    void on(InstanceFailed event) {
        status = InstanceStatus.FAILED;
    }

    @EventSourcingHandler
    void on(InstanceDestroyed event) {
        status = InstanceStatus.DESTROYED;
    }
}
