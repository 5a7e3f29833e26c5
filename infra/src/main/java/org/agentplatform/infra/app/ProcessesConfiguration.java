package org.agentplatform.infra.app;

import java.util.concurrent.ExecutorService;
import org.agentplatform.command.CommandSideModule;
import org.agentplatform.infra.platform.BackgroundPriority;
import org.agentplatform.infra.platform.WorkerPools;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The command side's aggregates, and the pool its processes hand their work to from the event processors' threads. */
@Configuration(proxyBeanMethods = false)
public class ProcessesConfiguration {

    @Bean
    CommandSideModule commandSideModule() {
        return new CommandSideModule();
    }

    /** The processes' hand-off from event processor threads: commands are sent outside the processor's transaction. */
    @Bean(destroyMethod = "shutdown")
    ExecutorService processExecutor(BackgroundPriority background) {
        return WorkerPools.fixed("process", 8, background.threads("process"));
    }
}
