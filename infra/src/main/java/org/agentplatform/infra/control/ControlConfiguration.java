package org.agentplatform.infra.control;

import java.time.Clock;
import org.agentplatform.api.control.ControlBudget;
import org.agentplatform.infra.PlatformProperties;
import org.agentplatform.infra.local.LocalRuntime;
import org.agentplatform.infra.local.device.LocalDevices;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/** Computer and mobile control: the local provider's devices and the owner-scoped budget in PostgreSQL. */
@Configuration(proxyBeanMethods = false)
public class ControlConfiguration {

    @Bean(destroyMethod = "close")
    LocalDevices devices(LocalRuntime localRuntime) {
        return localRuntime.devices();
    }

    @Bean
    ControlBudget controlBudget(DatabaseClient database, Clock clock, PlatformProperties properties) {
        return new PostgresControlBudget(database, clock, properties.control().budgetTimeout());
    }
}
