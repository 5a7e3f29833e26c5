package org.agentplatform.infra.local;

import java.util.List;
import org.agentplatform.api.instance.InjectedFault;
import org.agentplatform.api.instance.RuntimeFaults;
import org.agentplatform.kernel.instance.InstanceId;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The API's fault injection port, served by the local runtime (JDBC, off the event loop). */
public final class LocalRuntimeFaults implements RuntimeFaults {

    private final LocalRuntime runtime;

    public LocalRuntimeFaults(LocalRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public Mono<List<InjectedFault>> faults(InstanceId instanceId) {
        return Mono.fromCallable(() -> runtime.faults(instanceId).map(rules -> rules.stream().map(LocalRuntimeFaults::wire).toList())
                        .orElse(null))
                .subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public Mono<Boolean> replace(InstanceId instanceId, List<InjectedFault> faults) {
        List<FaultRule> rules = faults.stream().map(LocalRuntimeFaults::rule).toList();
        return Mono.fromCallable(() -> runtime.replaceFaults(instanceId, rules)).subscribeOn(Schedulers.boundedElastic());
    }

    private static FaultRule rule(InjectedFault fault) {
        return new FaultRule(fault.method(), fault.latencyMs(),
                fault.failWith() == null ? null : new FaultRule.FailWith(fault.failWith().code(), fault.failWith().message()),
                Boolean.TRUE.equals(fault.neverAnswer()), Boolean.TRUE.equals(fault.partialWrite()), fault.times());
    }

    private static InjectedFault wire(FaultRule rule) {
        return new InjectedFault(rule.method(), rule.latencyMs(),
                rule.failWith() == null ? null : new InjectedFault.FailWith(rule.failWith().code(), rule.failWith().message()),
                rule.neverAnswer(), rule.partialWrite(), rule.times());
    }
}
