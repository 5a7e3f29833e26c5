package org.agentplatform.api.instance;

import java.util.List;
import org.agentplatform.kernel.instance.InstanceId;
import reactor.core.publisher.Mono;

/** Port: the fault rules of a {@code local} instance's runtime; empty when the instance has no local runtime. */
public interface RuntimeFaults {

    Mono<List<InjectedFault>> faults(InstanceId instanceId);

    /** Replaces the rules; false when the instance has no local runtime. */
    Mono<Boolean> replace(InstanceId instanceId, List<InjectedFault> faults);
}
