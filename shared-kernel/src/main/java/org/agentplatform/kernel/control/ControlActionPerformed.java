package org.agentplatform.kernel.control;

import java.util.Map;
import org.agentplatform.kernel.identity.OwnerId;
import org.agentplatform.kernel.instance.InstanceId;

/**
 * An atomic control action reached an instance's device (the record of it: who and which request are the event's
 * metadata). {@code params} are the action's parameters, except typed text, which is kept only as its length
 * ({@code text_length}). {@code outcome} is {@code performed} or the code of the device's refusal.
 */
public record ControlActionPerformed(InstanceId instanceId, OwnerId ownerId, ControlSurface surface, ControlAction action,
        Map<String, Object> params, String outcome) {

    public static final String PERFORMED = "performed";

    public ControlActionPerformed {
        params = params == null ? Map.of() : Map.copyOf(params);
    }
}
