package org.agentplatform.command.instance;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.agentplatform.command.ProcessCommands;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceDeployment;
import org.agentplatform.kernel.instance.InstanceCommand.CompleteInstanceRestart;
import org.agentplatform.kernel.instance.InstanceCommand.FailInstance;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDeployRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceDestroyed;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceRestartRequested;
import org.agentplatform.kernel.instance.InstanceEvent.InstanceStopped;
import org.agentplatform.kernel.instance.InstanceEvent.RuntimeStarted;
import org.agentplatform.kernel.instance.InstanceId;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.MetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries an instance's lifecycle out at its provider and reports back: a deploy or restart completes
 * or fails the instance. The provider is called off the event processor's thread, so a slow provider
 * does not hold the stream and a refused report does not roll the processor's work back.
 */
@ProcessingGroup(InstanceLifecycle.GROUP)
public class InstanceLifecycle {

    public static final String GROUP = "instance-lifecycle";
    private static final Logger log = LoggerFactory.getLogger(InstanceLifecycle.class);

    private final InstanceProvisioning provisioning;
    private final CommandGateway commands;
    private final Executor executor;

    public InstanceLifecycle(InstanceProvisioning provisioning, CommandGateway commands, Executor executor) {
        this.provisioning = provisioning;
        this.commands = commands;
        this.executor = ProcessCommands.carrying(executor);
    }

    @EventHandler
    void on(InstanceDeployRequested event) {
        carryOut(event.instanceId(), "deploy",
                () -> provisioning.deploy(event.instanceId(), event.ownerId(), event.providerId(), event.regionId(), event.kind()),
                new CompleteInstanceDeployment(event.instanceId()));
    }

    @EventHandler
    void on(InstanceRestartRequested event) {
        carryOut(event.instanceId(), "restart", () -> provisioning.restart(event.instanceId()),
                new CompleteInstanceRestart(event.instanceId()));
    }

    @EventHandler
    void on(RuntimeStarted event) {
        carryOut(event.instanceId(), "activate", () -> provisioning.activate(event.instanceId(), event.runtimeEpoch()), null);
    }

    @EventHandler
    void on(InstanceStopped event) {
        carryOut(event.instanceId(), "stop", () -> provisioning.stop(event.instanceId(), event.runtimeEpoch()), null);
    }

    @EventHandler
    void on(InstanceDestroyed event) {
        carryOut(event.instanceId(), "destroy", () -> provisioning.destroy(event.instanceId()), null);
    }

    private void carryOut(InstanceId instance, String step, Supplier<CompletionStage<Void>> work, Object onSuccess) {
        executor.execute(() -> {
            MetaData context = ProcessCommands.context();
            work.get().whenComplete((done, failure) -> {
                if (failure != null) {
                    log.atWarn().addKeyValue("instance_id", instance.toString()).addKeyValue("step", step).setCause(failure)
                            .log("provider step failed");
                    ProcessCommands.send(commands, new FailInstance(instance, step + " failed: " + failure.getMessage()), context);
                } else if (onSuccess != null) {
                    ProcessCommands.send(commands, onSuccess, context);
                }
            });
        });
    }
}
